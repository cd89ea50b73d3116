import type { ComponentChildren } from 'preact'
import { Icon } from './icon.tsx'

/** "Nothing here" with a hint of what to do next. */
export function EmptyState({ title, icon = 'list', children }: { title: string; icon?: string; children?: ComponentChildren }) {
  return (
    <div class="empty-state">
      <Icon name={icon} size={28} />
      <p class="empty-title">{title}</p>
      {children && <div class="empty-hint">{children}</div>}
    </div>
  )
}
