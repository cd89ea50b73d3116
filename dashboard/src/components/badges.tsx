import type { IssueTag } from '../api/types.ts'
import { humanize } from '../lib/format.ts'
import { Icon } from './icon.tsx'

/** Severity, status and tag chips; colours come from CSS classes so both themes stay legible. */
export function SeverityBadge({ severity }: { severity: string }) {
  return <span class={`badge severity severity-${severity.toLowerCase()}`}>{severity}</span>
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge status status-${status}`}>{humanize(status)}</span>
}

export function TagChip({ tag, title }: { tag: Pick<IssueTag, 'name' | 'color' | 'icon'> & { source?: string }; title?: string }) {
  return (
    <span class="tag-chip" style={{ '--tag-color': tag.color }} title={title ?? (tag.source ? `${tag.name} (${tag.source})` : tag.name)}>
      <Icon name={tag.icon} size={12} />
      {tag.name}
    </span>
  )
}

export function ModuleChip({ name, color }: { name: string; color: string | null }) {
  return (
    <span class="module-chip">
      <span class="dot" style={{ background: color ?? 'var(--muted)' }} aria-hidden="true" />
      {name}
    </span>
  )
}
