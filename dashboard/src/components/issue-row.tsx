import { useEffect, useRef } from 'preact/hooks'
import type { IssueStatus } from '../../../shared/constants.ts'
import type { IssueListItem } from '../api/types.ts'
import type { IssueBadge } from '../../../shared/schemas/issue.ts'
import { formatNumber, relativeTime, utcTitle } from '../lib/format.ts'
import { hrefFor, navigate } from '../state/url-state.ts'
import { ModuleChip, SeverityBadge, StatusBadge, TagChip } from './badges.tsx'
import { RowActions } from './row-actions.tsx'
import { Sparkline } from './sparkline.tsx'

const BADGE_TEXT: Record<IssueBadge, { label: string; title: string }> = {
  new: { label: 'New', title: 'First seen within the last 24 hours' },
  regressed: { label: 'Regressed', title: 'Occurred again after it was fixed' },
  escalating: { label: 'Escalating', title: 'Today well above its daily average of the last week' },
}

export interface IssueRowProps {
  item: IssueListItem
  selected: boolean
  open: boolean
  busy: boolean
  onToggle: (id: number, shift: boolean) => void
  onStatus: (id: number, status: IssueStatus) => void
  /** Called when the row goes away while holding focus, so the list can put focus somewhere visible. */
  onFocusLost: (id: number) => void
}

/**
 * One issue: a table row on wide screens, a card on a phone (the same cells, laid out by issue-list.css):
 * selection box, severity, title with badges and context, status, count, 14-day trend, first and last seen,
 * and the actions menu.
 */
export function IssueRow({ item, selected, open, busy, onToggle, onStatus, onFocusLost }: IssueRowProps) {
  const row = useRef<HTMLTableRowElement>(null)
  const context = [item.exception_class, item.source_frame].filter(Boolean).join(' · ')
  const lost = useRef(onFocusLost)
  lost.current = onFocusLost
  // Preact runs this before the row leaves the DOM: if it held focus, focus would otherwise fall to <body>.
  useEffect(() => () => {
    if (row.current?.contains(document.activeElement)) lost.current(item.id)
  }, [item.id])

  return (
    <tr
      ref={row}
      class={open ? 'issue-row open' : selected ? 'issue-row selected' : 'issue-row'}
      data-issue-id={item.id}
      onClick={(event) => {
        // A click anywhere on the row opens it (keyboard users have the title link); controls keep their own.
        if ((event.target as HTMLElement).closest('a, button, input, label, [role="menu"]')) return
        navigate({ issue: item.id })
      }}
    >
      <td class="col-select">
        <input
          type="checkbox"
          checked={selected}
          aria-label={`Select issue ${item.title}`}
          onClick={(event) => onToggle(item.id, event.shiftKey)}
        />
      </td>
      <td class="col-severity">
        <SeverityBadge severity={item.severity} />
      </td>
      <td class="col-title">
        <a
          href={hrefFor({ issue: item.id })}
          class="issue-link"
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
            event.preventDefault()
            navigate({ issue: item.id })
          }}
        >
          {item.title}
        </a>
        {item.badges.length > 0 && (
          <span class="issue-badges">
            {item.badges.map((badge) => (
              <span key={badge} class={`triage-badge triage-${badge}`} title={BADGE_TEXT[badge].title}>
                {BADGE_TEXT[badge].label}
              </span>
            ))}
          </span>
        )}
        <div class="issue-sub">
          {item.module_name && <ModuleChip name={item.module_name} color={item.module_color} />}
          {context && <span class="issue-context" title={context}>{context}</span>}
          <span class="issue-age" title={utcTitle(item.first_seen)}>First seen {relativeTime(item.first_seen)}</span>
          {item.tags.map((tag) => (
            <TagChip key={tag.id} tag={tag} />
          ))}
        </div>
      </td>
      <td class="col-status">
        <StatusBadge status={item.status} />
      </td>
      <td class="col-count">
        {formatNumber(item.count)}
        <span class="card-only"> {item.count === 1 ? 'event' : 'events'}</span>
      </td>
      <td class="col-trend">
        <Sparkline counts={item.trend} />
      </td>
      <td class="col-first" title={utcTitle(item.first_seen)}>
        {relativeTime(item.first_seen)}
      </td>
      <td class="col-seen" title={utcTitle(item.last_seen)}>
        <span class="card-only">Last seen </span>
        {relativeTime(item.last_seen)}
      </td>
      <td class="col-actions">
        <RowActions item={item} selected={selected} busy={busy} onToggle={onToggle} onStatus={onStatus} />
      </td>
    </tr>
  )
}
