import type { StatusHistoryRow } from '../api/types.ts'
import { relativeTime, utcTitle } from '../lib/format.ts'
import { StatusBadge } from './badges.tsx'

/** Every status change, newest first, with its note and actor (immutable history rows). */
export function StatusHistory({ rows }: { rows: readonly StatusHistoryRow[] }) {
  if (rows.length === 0) return <p class="muted small">No status changes yet.</p>
  return (
    <ol class="history" data-testid="status-history">
      {rows.map((row) => (
        <li key={row.id} class="history-item">
          <div class="history-line">
            {row.from_status ? <StatusBadge status={row.from_status} /> : <span class="muted small">created</span>}
            <span aria-label="to">→</span>
            <StatusBadge status={row.to_status} />
            <time class="muted small" title={utcTitle(row.created_at)}>{relativeTime(row.created_at)}</time>
            {row.actor && <span class="muted small">by {row.actor}</span>}
          </div>
          {row.note && <p class="history-note">{row.note}</p>}
        </li>
      ))}
    </ol>
  )
}
