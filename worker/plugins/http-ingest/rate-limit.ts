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

/** Events counted against one cap scope in one bucket. */
export interface RateCount {
  readonly scope: string
  readonly bucket: number
  readonly count: number
}

/**
 * Adds each count to its counter in one upsert, and forgets buckets before `oldestKept` (the previous
 * window's; null: not this time), so the per-IP counters hold only the IPs of the last two windows. Concurrent commits each add
 * atomically; isolates that read the counters at the same moment may together pass a cap by what they
 * carried (at most one commit each).
 */
export function countRateStatements(scope: AppScope, counts: readonly RateCount[], oldestKept: number | null): Statement[] {
  const d = scope.db.dialect
  const T = scope.t.ingestRate
  // The counts as ONE JSON parameter, not three placeholders each: a commit counts one scope per client address
  // queued behind it (per-IP cap), and D1 refuses a statement of more than 100 parameters.
  const rows = d.jsonTuples({ scope: 'text', bucket: 'integer', n: 'integer' }, 'j')
  const args: SqlValue[] = [JSON.stringify(counts.map((count) => [count.scope, count.bucket, count.count]))]
  const add: Statement = {
    sql: d.upsert(T, ['scope', 'bucket', 'count'], `SELECT j.scope, j.bucket, j.n FROM ${rows} WHERE 1 = 1`, ['scope', 'bucket'], { count: `${T}.count + ${d.incoming('count')}` }),
    args,
  }
  return oldestKept === null ? [add] : [add, { sql: `DELETE FROM ${T} WHERE bucket < ?`, args: [oldestKept] }]
}

/**
 * Counter rows with `reserved` added to the current bucket: events let in and not yet committed count
 * against the caps of the requests behind them.
 */
export function withReserved(rows: readonly Record<string, unknown>[], reserved: ReadonlyMap<string, number>, window: RateWindow): Record<string, unknown>[] {
  if (reserved.size === 0) return [...rows]
  const out = rows.map((row) => (Number(row.bucket) === window.bucket && reserved.has(String(row.scope)) ? { ...row, count: Number(row.count) + reserved.get(String(row.scope))! } : row))
  for (const [scope, count] of reserved) if (!rows.some((row) => row.scope === scope && Number(row.bucket) === window.bucket)) out.push({ scope, bucket: window.bucket, count })
  return out
}
