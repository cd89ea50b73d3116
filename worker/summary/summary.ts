import { parseJson } from '../../drivers/dialect/dialect.ts'
import { SEVERITIES, STATUS_SUMMARY_ORDER } from '../../shared/constants.ts'
import type { CountRow, Summary } from '../../shared/api.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { toDay } from '../time.ts'
import { compareSourceFiles, SOURCE_FILE_JSON_FIELDS, SOURCE_FILE_ORDER, sourceFileSelect, toSourceFile, type SourceFile } from '../sources/source-file-rows.ts'



/** The `daily_severity` window: 30 days ending at the newest day with data (reference §3.1). */
const WINDOW_DAYS = 30

/**
 * The dashboard's overview in ONE statement (one round trip on every driver): each section is a JSON array
 * built by a scalar subquery. Issue figures come from `issue_rollup` (issues and occurrences per module,
 * severity, status and log type, kept exact by triggers: migration 0016), the two newest times from one probe
 * each of `groups_last_seen` (the ingested one walks it from the top to the first ingested issue: manual
 * issues are few, and an (origin, last_seen) index would be one more entry every import rewrites, issue 11),
 * and day figures from the `daily_counts` rollup (occurrences per day and severity) — so the cost does not grow
 * with the number of issues or occurrences (issue 18). The 30-day window of `daily_severity` is cut here.
 * Sections are ordered here, because JSON aggregation does not keep order on every engine. `dashboard` carries
 * the dashboard's configured freshness threshold (config `dashboard.*`), so the overview needs no second request.
 */
export async function getSummary(scope: AppScope, now: Date, dashboard: Summary['dashboard']): Promise<Summary> {
  const { t, db } = scope
  const d = db.dialect
  // Rollup rows that fell to 0 issues are kept by the triggers (migration 0016) and skipped here.
  const sql = `SELECT
    ${d.jsonArray(
      { severity: 'x.severity', status: 'x.status', log_type: 'x.log_type', groups_count: 'x.groups_count', occurrences: 'x.occurrences' },
      `FROM (SELECT severity, status, log_type, SUM(issues) AS groups_count, SUM(occurrences) AS occurrences
             FROM ${t.issueRollup} WHERE issues > 0 GROUP BY severity, status, log_type) x`,
    )} AS breakdown,
    (SELECT last_seen FROM ${t.groups} ORDER BY last_seen DESC LIMIT 1) AS last_seen,
    (SELECT last_seen FROM ${t.groups} WHERE COALESCE(origin, '') = 'ingested' ORDER BY last_seen DESC LIMIT 1) AS last_event,
    ${d.jsonArray({ day: 'x.day', count: 'x.count' }, `FROM (SELECT day, SUM(count) AS count FROM ${t.dailyCounts} WHERE count > 0 GROUP BY day) x`)} AS trend,
    ${d.jsonArray({ day: 'x.day', severity: 'x.severity', count: 'x.count' }, `FROM (SELECT day, severity, count FROM ${t.dailyCounts} WHERE count > 0) x`)} AS daily,
    ${d.jsonArray(SOURCE_FILE_JSON_FIELDS, `FROM (${sourceFileSelect(scope)} ORDER BY ${SOURCE_FILE_ORDER} LIMIT 12) x`)} AS files,
    ${d.jsonArray(
      { id: 'x.id', name: 'x.name', name_key: 'x.name_key', slug: 'x.slug', color: 'x.color', created_at: 'x.created_at', issue_count: 'x.issue_count' },
      `FROM (SELECT m.id, m.name, m.name_key, m.slug, m.color, m.created_at,
                    (SELECT COALESCE(SUM(r.issues), 0) FROM ${t.issueRollup} r WHERE r.module_key = m.id) AS issue_count
             FROM ${t.modules} m) x`,
    )} AS modules`
  const { rows } = await db.execute({ sql })
  const row = rows[0] ?? {}
  type Breakdown = { severity: string; status: string; log_type: string; groups_count: number; occurrences: number }
  const breakdown = parseJson<Breakdown[]>(row.breakdown, [])
  const trend = parseJson<{ day: string; count: number }[]>(row.trend, [])
    .map((entry) => ({ day: entry.day, count: Number(entry.count) }))
    .sort((a, b) => compareText(a.day, b.day))
  const anchor = trend.at(-1)?.day ?? toDay(now)
  const since = toDay(new Date(Date.parse(`${anchor}T00:00:00Z`) - (WINDOW_DAYS - 1) * 86_400_000))
  const daily = parseJson<{ day: string; severity: string; count: number }[]>(row.daily, [])
    .filter((entry) => entry.day >= since && entry.day <= anchor)
    .map((entry) => ({ day: entry.day, severity: entry.severity, count: Number(entry.count) }))
    .sort((a, b) => compareText(a.day, b.day) || compareText(a.severity, b.severity))
  const modules = parseJson<(Summary['modules'][number] & { name_key: string })[]>(row.modules, [])
    .sort((a, b) => compareText(a.name_key, b.name_key) || Number(a.id) - Number(b.id))
    .map(({ name_key: _key, ...module }) => ({ ...module, id: Number(module.id), issue_count: Number(module.issue_count) }))
  return {
    total: {
      groups_count: sum(breakdown, 'groups_count'),
      occurrences: sum(breakdown, 'occurrences'),
      last_seen: text(row.last_seen),
      // Issue 17 item 10: "Last event" must not be reset by a manual or tracker-made issue, which has no event.
      last_event: text(row.last_event),
    },
    severity: rollUp(breakdown, 'severity', SEVERITIES).map(([severity, bucket]) => ({ severity, ...bucket })),
    status: rollUp(breakdown, 'status', STATUS_SUMMARY_ORDER).map(([status, bucket]) => ({ status, ...bucket })),
    types: rollUp(breakdown, 'log_type', [])
      .sort(([a, x], [b, y]) => y.occurrences - x.occurrences || compareText(a, b))
      .map(([log_type, bucket]) => ({ log_type, ...bucket })),
    trend,
    daily_severity: daily,
    files: parseJson<Record<string, unknown>[]>(row.files, []).map(toSourceFile).sort(compareSourceFiles),
    modules,
    dashboard: { stale_after_hours: dashboard.stale_after_hours },
  }
}

function text(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value)
}

/** Totals per value of `key`, in `order` first and any other value after it (alphabetically). */
function rollUp<K extends 'severity' | 'status' | 'log_type'>(
  rows: readonly (Record<K, string> & { groups_count: number; occurrences: number })[],
  key: K,
  order: readonly string[],
): [string, CountRow][] {
  const totals = new Map<string, { groups_count: number; occurrences: number }>()
  for (const row of rows) {
    const bucket = totals.get(row[key]) ?? { groups_count: 0, occurrences: 0 }
    bucket.groups_count += Number(row.groups_count)
    bucket.occurrences += Number(row.occurrences)
    totals.set(row[key], bucket)
  }
  const rank = (value: string) => (order.includes(value) ? order.indexOf(value) : order.length)
  return [...totals.entries()].sort(([a], [b]) => rank(a) - rank(b) || compareText(a, b))
}

function sum<T>(rows: readonly T[], key: keyof T): number {
  return rows.reduce((total, row) => total + Number(row[key]), 0)
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
