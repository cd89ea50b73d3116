import type { Summary } from '../api/types.ts'

export const ERROR_SEVERITIES = new Set(['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR'])

export interface TrendDays {
  readonly days: string[]
  readonly events: number[]
  readonly errors: number[]
}

const DAY_MS = 86_400_000

/**
 * The chart's window: the 30 days ending TODAY (UTC), missing days filled with zeros so the x axis is
 * continuous. Issue 17 item 10: a window ending at the newest day with data made a dead feed look alive — the
 * bars went on to the right edge whatever the date. The API's `daily_severity` window ends at the newest day
 * with data (reference §3.1), which is never after today, so it always covers this window's days with data.
 */
export function trendDays(summary: Summary, now = Date.now(), span = 30): TrendDays {
  const end = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`)
  const days = Array.from({ length: span }, (_, index) => new Date(end - (span - 1 - index) * DAY_MS).toISOString().slice(0, 10))
  const counts = new Map((summary.trend ?? []).map((row) => [row.day, Number(row.count)]))
  const errorCounts = new Map<string, number>()
  for (const row of summary.daily_severity ?? []) {
    if (ERROR_SEVERITIES.has(row.severity)) errorCounts.set(row.day, (errorCounts.get(row.day) ?? 0) + Number(row.count))
  }
  return { days, events: days.map((day) => counts.get(day) ?? 0), errors: days.map((day) => errorCounts.get(day) ?? 0) }
}

/** Whether any day of the window had an event (an all-zero chart says nothing; a sentence says more). */
export function hasEvents(trend: TrendDays): boolean {
  return trend.events.some((count) => count > 0)
}
