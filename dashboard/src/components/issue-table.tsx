import { useRef } from 'preact/hooks'
import type { IssueStatus } from '../../../shared/constants.ts'
import type { IssueListItem } from '../api/types.ts'
import { IssueRow } from './issue-row.tsx'

/**
 * The issue table. Multi-select: the header box selects the page; shift-click selects a range. The
 * selection is capped at 200, the bulk endpoint's limit. The header row is sticky (issue-list.css); on a
 * phone the rows become cards and the header is hidden.
 */
export const MAX_SELECTION = 200

export function IssueTable({ items, selected, onSelect, openId, busy, onStatus, onFocusLost }: {
  items: readonly IssueListItem[]
  selected: ReadonlySet<number>
  onSelect: (next: Set<number>) => void
  openId: number | null
  busy: boolean
  onStatus: (id: number, status: IssueStatus) => void
  onFocusLost: (id: number) => void
}) {
  const anchor = useRef<number | null>(null)
  const allSelected = items.length > 0 && items.every((item) => selected.has(item.id))
  const someSelected = items.some((item) => selected.has(item.id))

  const toggle = (id: number, shift: boolean) => {
    const next = new Set(selected)
    const ids = items.map((item) => item.id)
    if (shift && anchor.current !== null && ids.includes(anchor.current)) {
      const [a, b] = [ids.indexOf(anchor.current), ids.indexOf(id)].sort((x, y) => x - y)
      const adding = !selected.has(id)
      for (const rangeId of ids.slice(a, b! + 1)) adding ? next.add(rangeId) : next.delete(rangeId)
    } else if (next.has(id)) next.delete(id)
    else next.add(id)
    anchor.current = id
    onSelect(cap(next))
  }

  return (
    <div class="table-wrap">
      <table class="issue-table">
        <caption class="visually-hidden">Issues</caption>
        <thead>
          <tr>
            <th scope="col" class="col-select">
              <input
                type="checkbox"
                aria-label="Select all issues on this page"
                checked={allSelected}
                indeterminate={!allSelected && someSelected}
                onChange={() => {
                  const next = new Set(selected)
                  for (const item of items) allSelected ? next.delete(item.id) : next.add(item.id)
                  onSelect(cap(next))
                }}
              />
            </th>
            <th scope="col" class="col-severity">Severity</th>
            <th scope="col" class="col-title">Issue</th>
            <th scope="col" class="col-status">Status</th>
            <th scope="col" class="col-count">Events</th>
            <th scope="col" class="col-trend">14 days</th>
            <th scope="col" class="col-first">First seen</th>
            <th scope="col" class="col-seen">Last seen</th>
            <th scope="col" class="col-actions"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <IssueRow
              key={item.id}
              item={item}
              selected={selected.has(item.id)}
              open={openId === item.id}
              busy={busy}
              onToggle={toggle}
              onStatus={onStatus}
              onFocusLost={onFocusLost}
            />
          ))}
        </tbody>
      </table>
    </div>
  )
}

function cap(ids: Set<number>): Set<number> {
  return ids.size <= MAX_SELECTION ? ids : new Set([...ids].slice(0, MAX_SELECTION))
}
