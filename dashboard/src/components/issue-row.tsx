import type { IssueListItem } from '../api/types.ts'
import { formatNumber, relativeTime, utcTitle } from '../lib/format.ts'
import { hrefFor, navigate } from '../state/url-state.ts'
import { ModuleChip, SeverityBadge, StatusBadge, TagChip } from './badges.tsx'

/** One issue in the table: selection box, severity, title with context, status, count and last seen. */
export function IssueRow({ item, selected, open, onToggle }: { item: IssueListItem; selected: boolean; open: boolean; onToggle: (id: number, shift: boolean) => void }) {
  const context = [item.exception_class, item.source_frame].filter(Boolean).join(' · ')
  return (
    <tr
      class={open ? 'issue-row open' : selected ? 'issue-row selected' : 'issue-row'}
      data-issue-id={item.id}
      onClick={(event) => {
        // A click anywhere on the row opens it (keyboard users have the title link); controls keep their own.
        if ((event.target as HTMLElement).closest('a, button, input, label')) return
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
        <div class="issue-sub">
          {item.module_name && <ModuleChip name={item.module_name} color={item.module_color} />}
          {context && <span class="issue-context" title={context}>{context}</span>}
          {item.tags.map((tag) => (
            <TagChip key={tag.id} tag={tag} />
          ))}
        </div>
      </td>
      <td class="col-status">
        <StatusBadge status={item.status} />
      </td>
      <td class="col-count">{formatNumber(item.count)}</td>
      <td class="col-seen" title={utcTitle(item.last_seen)}>
        {relativeTime(item.last_seen)}
      </td>
    </tr>
  )
}
