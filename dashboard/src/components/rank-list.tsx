import { formatNumber } from '../lib/format.ts'

export interface RankRow {
  readonly label: string
  readonly count: number
  /** Shown after the count in the danger tone (a path's errors). */
  readonly errors?: number
}

/** A read-only ranked list with proportional bars (the access analytics' paths, methods, agents, classes). */
export function RankList({ title, rows, testId, emptyText, countTitle }: { title: string; rows: readonly RankRow[]; testId: string; emptyText: string; countTitle?: string }) {
  const max = Math.max(1, ...rows.map((row) => row.count))
  return (
    <section class="panel" aria-label={title}>
      <h3 class="panel-title">{title}</h3>
      {rows.length === 0 && <p class="muted small">{emptyText}</p>}
      <ul class="rank-list" data-testid={testId}>
        {rows.map((row) => (
          <li key={row.label} class="rank-row">
            <span class="rank-label" title={row.label}>
              {row.label}
            </span>
            <span class="breakdown-bar" aria-hidden="true">
              <span class="breakdown-fill" style={{ width: `${(row.count / max) * 100}%` }} />
            </span>
            <span class="rank-count" title={countTitle}>
              {formatNumber(row.count)}
              {row.errors !== undefined && row.errors > 0 && <span class="tone-danger"> · {formatNumber(row.errors)} failed</span>}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
