import type { Summary } from '../api/types.ts'

export const ERROR_SEVERITIES = new Set(['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR'])

export interface TrendDays {
  readonly days: string[]
  readonly events: number[]
  readonly errors: number[]
}

/**
 * The chart's window: the 30 days ending at the newest day with data (the same window the API uses for
 * `daily_severity`), with missing days filled with zeros so the x axis is continuous.
 */
export function trendDays(summary: Summary, span = 30): TrendDays {
  const trend = summary.trend ?? []
  if (trend.length === 0) return { days: [], events: [], errors: [] }
  const newest = trend.reduce((max, row) => (row.day > max ? row.day : max), trend[0]!.day)
  const end = Date.parse(`${newest}T00:00:00Z`)
  const days = Array.from({ length: span }, (_, index) => new Date(end - (span - 1 - index) * 86_400_000).toISOString().slice(0, 10))
  const counts = new Map(trend.map((row) => [row.day, Number(row.count)]))
  const errorCounts = new Map<string, number>()
  for (const row of summary.daily_severity ?? []) {
    if (ERROR_SEVERITIES.has(row.severity)) errorCounts.set(row.day, (errorCounts.get(row.day) ?? 0) + Number(row.count))
  }
  return { days, events: days.map((day) => counts.get(day) ?? 0), errors: days.map((day) => errorCounts.get(day) ?? 0) }
}
