import type { SqlValue, Statement } from '../../../drivers/driver.ts'
import type { AppScope } from '../../apps/app-scope.ts'

/** One cap: events per window for a counter scope (`app`, or `ip:<address>`). */
export interface RateCap {
  readonly scope: string
  readonly max: number
}

/** Where `now` falls: the fixed bucket, the fraction of it gone by, and the seconds until it rolls over. */
export interface RateWindow {
  readonly bucket: number
  readonly elapsed: number
  readonly retryAfter: number
}

export function rateWindow(now: Date, windowSeconds: number): RateWindow {
  const seconds = now.getTime() / 1000
  const bucket = Math.floor(seconds / windowSeconds)
  const into = seconds - bucket * windowSeconds
  return { bucket, elapsed: into / windowSeconds, retryAfter: Math.max(1, Math.ceil(windowSeconds - into)) }
}

/** Reads the current and previous buckets of every cap (rows `scope, bucket, count`). */
export function readRateCounters(scope: AppScope, caps: readonly RateCap[], window: RateWindow): Statement {
  return {
    sql: `SELECT scope, bucket, count FROM ${scope.t.ingestRate} WHERE scope IN (${caps.map(() => '?').join(', ')}) AND bucket IN (?, ?)`,
    args: [...caps.map((cap) => cap.scope), window.bucket, window.bucket - 1],
  }
}

/**
 * How many more events the caps allow (reference §4.3): a sliding-window counter over fixed buckets —
 * usage = this bucket's count + the previous bucket's count × the part of the window still ahead — and the
 * tightest cap wins.
 */
export function rateAllowance(rows: readonly Record<string, unknown>[], caps: readonly RateCap[], window: RateWindow): number {
  let allowed = Number.POSITIVE_INFINITY
  for (const cap of caps) {
    const count = (bucket: number) => Number(rows.find((row) => row.scope === cap.scope && Number(row.bucket) === bucket)?.count ?? 0)
    const usage = count(window.bucket) + count(window.bucket - 1) * (1 - window.elapsed)
    allowed = Math.min(allowed, Math.max(0, Math.floor(cap.max - usage)))
  }
  return allowed
}

/**
 * Counts `events` against every cap, and forgets buckets older than the previous one, so the per-IP counters
 * hold only the IPs of the last two windows. Concurrent requests each add atomically; two that read the
 * counters at the same moment may together pass a cap by what they carried (at most one batch each).
 */
export function countRateEvents(scope: AppScope, caps: readonly RateCap[], window: RateWindow, events: number): Statement[] {
  const d = scope.db.dialect
  const T = scope.t.ingestRate
  const values = caps.map(() => '(?, ?, ?)').join(', ')
  const args: SqlValue[] = caps.flatMap((cap) => [cap.scope, window.bucket, events])
  return [
    { sql: d.upsert(T, ['scope', 'bucket', 'count'], `VALUES ${values}`, ['scope', 'bucket'], { count: `${T}.count + ${d.incoming('count')}` }), args },
    { sql: `DELETE FROM ${T} WHERE bucket < ?`, args: [window.bucket - 1] },
  ]
}
