import { parseJson } from '../../drivers/dialect/dialect.ts'
import { Fragment } from '../../drivers/sql.ts'
import type { AppScope } from '../apps/app-scope.ts'

/** Days in a list row's `trend` (issue 17 item 4): a 14-day sparkline, oldest first, ending today (UTC). */
export const TREND_DAYS = 14

/** The UTC days a trend covers, oldest first (`YYYY-MM-DD`, the form of `group_days.day`). */
export interface TrendWindow {
  readonly days: readonly string[]
  readonly since: string
  readonly today: string
}

export function trendWindow(now: Date): TrendWindow {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const days = Array.from({ length: TREND_DAYS }, (_, index) => new Date(midnight - (TREND_DAYS - 1 - index) * 86_400_000).toISOString().slice(0, 10))
  return { days, since: days[0]!, today: days[TREND_DAYS - 1]! }
}

/**
 * The daily counts of issue `g` inside the window, as a JSON array subquery over the per-issue daily rollup
 * (`group_days`, primary key (group_id, day)): at most 14 index rows per listed issue whatever the number of
 * occurrences — issue 18's bound (the list at 1,000,000 occurrences within 2× the small corpus).
 */
export function trendSql(scope: AppScope, window: TrendWindow): Fragment {
  const { t, db } = scope
  return new Fragment(
    db.dialect.jsonArray({ day: 'td.day', count: 'td.count' }, `FROM ${t.groupDays} td WHERE td.group_id = g.id AND td.day >= ? AND td.day <= ?`),
    [window.since, window.today],
  )
}

/** The trend column as 14 numbers, oldest first; days without a rollup row are 0. */
export function toTrend(value: unknown, window: TrendWindow): number[] {
  const counts = new Map(parseJson<{ day: string; count: number | string }[]>(value, []).map((entry) => [entry.day, Number(entry.count)]))
  return window.days.map((day) => counts.get(day) ?? 0)
}
