import type { DayCount } from '../api/types.ts'
import { formatNumber } from '../lib/format.ts'

/** The issue's events per day as small bars (the last 30 days with events). */
export function TimelineBars({ timeline }: { timeline: readonly DayCount[] }) {
  if (timeline.length === 0) return <p class="muted small">No events recorded.</p>
  const days = [...timeline].sort((a, b) => a.day.localeCompare(b.day)).slice(-30)
  const max = Math.max(1, ...days.map((row) => Number(row.count)))
  const first = days[0]!.day
  const last = days[days.length - 1]!.day
  return (
    <>
      <div class="timeline" role="img" aria-label={`Events per day: ${days.map((row) => `${row.day} ${row.count}`).join(', ')}`}>
        {days.map((row) => (
          <span key={row.day} class="timeline-bar" style={{ height: `${Math.max(6, (Number(row.count) / max) * 100)}%` }} title={`${row.day}: ${formatNumber(Number(row.count))}`} />
        ))}
      </div>
      <p class="muted small">
        {first === last ? first : `${first} – ${last}`} · {days.length === 1 ? '1 day' : `${days.length} days`} with events, at most {formatNumber(max)} a day
      </p>
    </>
  )
}
