import { ACCESS_DAYS, ACCESS_LIMITS, ACCESS_MESSAGES, type AccessAnalytics } from '../../../shared/schemas/access-analytics.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { OVERFLOW_ITEM } from '../../digest/access-rollup.ts'
import { InvalidInputError } from '../../errors.ts'
import { toTimestamp } from '../../time.ts'

/**
 * The `days` query value (reference §4.6): absent or empty is 7, an integer is clamped to 1..90 as the
 * reference does; anything else is a 422 (design.md §4: wrong types get a clear 4xx, docs/deviations.md).
 */
export function accessDays(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return ACCESS_DAYS.fallback
  if (!/^\s*[-+]?\d{1,9}\s*$/.test(raw)) throw new InvalidInputError(ACCESS_MESSAGES.days)
  return Math.min(ACCESS_DAYS.max, Math.max(ACCESS_DAYS.min, Number(raw)))
}

/** The first UTC day of a window of `days` calendar days ending today. */
export function windowStart(now: Date, days: number): string {
  return toTimestamp(new Date(now.getTime() - (days - 1) * 86_400_000)).slice(0, 10)
}

/**
 * Access-log analytics over the last `days` UTC calendar days (today included), read from the import-time
 * rollup (`access_rollup`, worker/digest/access-rollup.ts) rather than from occurrences, so every access line
 * counts — not only those the allow-list stored — and the cost depends on the window's distinct
 * day × class × method × path rows, never on the number of lines. ONE statement: each section is a branch of
 * a UNION ALL over the window's rows, tagged by `s` — one round trip after the plugin switch's read.
 */
export async function accessAnalytics(scope: AppScope, days: number, now: Date): Promise<AccessAnalytics> {
  const R = scope.t.accessRollup
  const error = `CASE WHEN w.status_class IN ('4xx', '5xx') THEN w.count ELSE 0 END`
  const paths = `FROM w WHERE w.kind = 'p'`
  // Four branches: D1 refuses compound SELECTs of more than a handful of terms. Days × classes × methods
  // stay few (methods are capped per day at import), so they come back whole and are summed here.
  const { rows } = await scope.db.execute({
    sql: `WITH w AS (SELECT kind, day, status_class, method, item, count FROM ${R} WHERE kind IN ('p', 'a') AND day >= ?)
      SELECT 'dcm' AS s, w.day AS k, w.status_class AS c, w.method AS m, SUM(w.count) AS n,
        (SELECT COUNT(DISTINCT u.item) FROM w u WHERE u.kind = 'p' AND u.item <> ?) AS e
        ${paths} GROUP BY w.day, w.status_class, w.method
      UNION ALL SELECT * FROM (SELECT 'path' AS s, w.item AS k, NULL AS c, NULL AS m, SUM(w.count) AS n, SUM(${error}) AS e ${paths}
        GROUP BY w.item ORDER BY n DESC, k LIMIT ${ACCESS_LIMITS.topPaths}) tp
      UNION ALL SELECT * FROM (SELECT 'error' AS s, w.item AS k, NULL AS c, NULL AS m, SUM(${error}) AS n, 0 AS e ${paths} AND w.status_class IN ('4xx', '5xx')
        GROUP BY w.item ORDER BY n DESC, k LIMIT ${ACCESS_LIMITS.errorPaths}) ep
      UNION ALL SELECT * FROM (SELECT 'agent' AS s, w.item AS k, NULL AS c, NULL AS m, SUM(w.count) AS n, 0 AS e FROM w WHERE w.kind = 'a'
        GROUP BY w.item ORDER BY n DESC, k LIMIT ${ACCESS_LIMITS.agents}) ta`,
    args: [windowStart(now, days), OVERFLOW_ITEM],
  })
  const lists = new Map<string, { k: string; n: number; e: number }[]>()
  const perDay = new Map<string, { count: number; errors: number }>()
  const classes = new Map<string, number>()
  const methods = new Map<string, number>()
  let unique = 0
  for (const row of rows) {
    const s = String(row.s)
    const k = row.k === null ? '' : String(row.k)
    const n = Number(row.n ?? 0)
    if (s === 'dcm') {
      const c = String(row.c)
      const day = perDay.get(k) ?? { count: 0, errors: 0 }
      day.count += n
      if (c === '4xx' || c === '5xx') day.errors += n
      perDay.set(k, day)
      classes.set(c, (classes.get(c) ?? 0) + n)
      methods.set(String(row.m), (methods.get(String(row.m)) ?? 0) + n)
      unique = Number(row.e ?? 0)
      continue
    }
    let list = lists.get(s)
    if (!list) lists.set(s, (list = []))
    list.push({ k, n, e: Number(row.e ?? 0) })
  }
  const byKey = <T,>(a: [string, T], b: [string, T]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
  // Engines order ties by their own collation: the lists are sorted again by count, then by code unit.
  const ranked = (list: { k: string; n: number; e: number }[]) => list.sort((a, b) => b.n - a.n || (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
  const of = (s: string) => ranked(lists.get(s) ?? [])
  const total = [...classes.values()].reduce((sum, n) => sum + n, 0)
  const errors = (classes.get('4xx') ?? 0) + (classes.get('5xx') ?? 0)
  return {
    window_days: days,
    total,
    unique_paths: unique,
    error_rate: total === 0 ? 0 : Math.round((errors / total) * 10_000) / 10_000,
    status_classes: [...classes].sort(byKey).map(([c, count]) => ({ class: c, count })),
    by_day: [...perDay].sort(byKey).map(([day, d]) => ({ day, count: d.count, errors: d.errors })),
    top_paths: of('path').map((p) => ({ path: p.k, count: p.n, errors: p.e })),
    error_paths: of('error').map((p) => ({ path: p.k, errors: p.n })),
    methods: ranked([...methods].map(([k, n]) => ({ k, n, e: 0 }))).map((m) => ({ method: m.k, count: m.n })),
    top_agents: of('agent').map((a) => ({ agent: a.k, count: a.n })),
  }
}

/**
 * Deletes rollup rows older than the widest window (90 days), from the cron trigger's maintenance while the
 * plugin is on: no request can read them. A reindex brings them back from the archived files (and this drops
 * them again); no count is ever doubled, as a re-read file's rows are cleared first.
 */
export async function pruneAccessRollup(scope: AppScope, now: Date): Promise<number> {
  const { rowsAffected } = await scope.db.execute({ sql: `DELETE FROM ${scope.t.accessRollup} WHERE day < ?`, args: [windowStart(now, ACCESS_DAYS.max)] })
  return rowsAffected
}
