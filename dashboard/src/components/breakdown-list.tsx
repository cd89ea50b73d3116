import { formatNumber } from '../lib/format.ts'

export interface BreakdownRow {
  readonly key: string
  readonly label: string
  readonly groups: number
  readonly events: number
  readonly className?: string
}

/**
 * A ranked list with proportional bars (severity and log-type breakdowns). Each row is a toggle button that
 * sets the matching filter.
 */
export function BreakdownList({ title, rows, active, onPick, emptyText }: {
  title: string
  rows: readonly BreakdownRow[]
  active: string
  onPick: (key: string) => void
  emptyText: string
}) {
  const max = Math.max(1, ...rows.map((row) => row.events))
  return (
    <section class="panel breakdown" aria-label={title}>
      <h3 class="panel-title">{title}</h3>
      {rows.length === 0 && <p class="muted small">{emptyText}</p>}
      <ul>
        {rows.map((row) => (
          <li key={row.key}>
            <button type="button" class={active === row.key ? 'breakdown-row active' : 'breakdown-row'} aria-pressed={active === row.key} onClick={() => onPick(active === row.key ? '' : row.key)}>
              <span class="breakdown-label">{row.label}</span>
              <span class="breakdown-bar" aria-hidden="true">
                <span class={`breakdown-fill ${row.className ?? ''}`} style={{ width: `${(row.events / max) * 100}%` }} />
              </span>
              <span class="breakdown-count" title={`${formatNumber(row.groups)} groups`}>
                {formatNumber(row.events)}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
