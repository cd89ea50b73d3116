import { parseUtc } from './format.ts'

export interface Freshness {
  /** Milliseconds since the newest event; null when there has never been one. */
  readonly ageMs: number | null
  /** True when the newest event is older than the configured while (config `dashboard.stale_after_hours`). */
  readonly stale: boolean
}

/**
 * How fresh the data is (issue 17 item 10): on-call people need to see at a glance that nothing has arrived
 * for a while — a dead log shipper otherwise looks like a quiet night. No events at all is not "stale": the
 * empty state explains how to send the first ones.
 */
export function freshness(lastSeen: string | null | undefined, staleAfterHours: number, now = Date.now()): Freshness {
  const date = parseUtc(lastSeen)
  if (!date) return { ageMs: null, stale: false }
  const ageMs = Math.max(0, now - date.getTime())
  return { ageMs, stale: ageMs > staleAfterHours * 3_600_000 }
}

/** "24 h", "3 d": the configured while, in the unit people think in. */
export function formatHours(hours: number): string {
  return hours % 24 === 0 ? `${hours / 24} d` : `${hours} h`
}

/** How long nothing has arrived: hours up to two days ("longer than 1 d" next to "1 d" says nothing), then days. */
export function formatAge(ageMs: number): string {
  const hours = Math.floor(ageMs / 3_600_000)
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`
}
