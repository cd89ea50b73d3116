import { measure, send, type BenchRequest, type Measurement } from './measure.ts'

/** One read measured on the small corpus and on the scale corpus, with the request for each application. */
export interface ReadScenario {
  readonly name: string
  make(iteration: number, corpus: Corpus): BenchRequest
}

/**
 * What a read needs of its application: issue ids to open (detail), and the module and source-file names
 * that the imported data carries (the two corpora name their files differently).
 */
export interface Corpus {
  readonly app: string
  readonly issueIds: number[]
  readonly module: string
  readonly source: string
}

/**
 * Issue 18's reads: every issue-list filter (each as it comes from the dashboard: the first page of 50,
 * newest first, with its total), the list orders, the detail, and the overview endpoints. Values are chosen
 * to match in both corpora, so the growth from the small corpus to the scale one is the cost of the data
 * alone. `tag=Tag checkout`, `module=`, `source=` and `log_type=laravel` match (nearly) every imported
 * issue — the worst case for a filter's total; `q=deadlock` matches no imported issue (a search that finds
 * little), and the quiet day none either: the worst case for a page that walks the list looking for 50 matches
 * (worker/issues/issue-candidates.ts).
 */
export const READ_SCENARIOS: readonly ReadScenario[] = [
  { name: 'GET issues (newest)', make: () => ({ method: 'GET', api: 'issues' }) },
  { name: 'GET groups (occurrences)', make: () => ({ method: 'GET', api: 'groups' }) },
  // The dashboard's list request (issue 17): priority order, 14-day trends and badges, no samples.
  { name: 'GET groups (priority, slim rows)', make: () => ({ method: 'GET', api: 'groups', query: { limit: 50, sort: 'priority', include_stack: 0, include_context: 0 } }) },
  { name: 'GET groups?min_severity=ERROR (priority)', make: () => ({ method: 'GET', api: 'groups', query: { limit: 50, sort: 'priority', min_severity: 'ERROR', include_stack: 0, include_context: 0 } }) },
  { name: 'GET issue-values (breakdown)', make: (i, c) => ({ method: 'GET', api: 'issue-values', query: { id: c.issueIds[Math.abs(i) % c.issueIds.length]! } }) },
  { name: 'GET issues page 20 oldest', make: () => ({ method: 'GET', api: 'issues', query: { page: 20, limit: 50, sort: 'oldest' } }) },
  { name: 'GET issues?severity=WARNING', make: () => ({ method: 'GET', api: 'issues', query: { severity: 'WARNING' } }) },
  { name: 'GET issues?status=open', make: () => ({ method: 'GET', api: 'issues', query: { status: 'open' } }) },
  { name: 'GET issues?status=fixed', make: () => ({ method: 'GET', api: 'issues', query: { status: 'fixed' } }) },
  { name: 'GET issues?date=', make: () => ({ method: 'GET', api: 'issues', query: { date: '2026-10-15' } }) },
  { name: 'GET issues?module=', make: (_i, c) => ({ method: 'GET', api: 'issues', query: { module: c.module } }) },
  { name: 'GET issues?tag=', make: () => ({ method: 'GET', api: 'issues', query: { tag: 'Tag checkout' } }) },
  { name: 'GET issues?log_type=laravel', make: () => ({ method: 'GET', api: 'issues', query: { log_type: 'laravel' } }) },
  { name: 'GET issues?source=', make: (_i, c) => ({ method: 'GET', api: 'issues', query: { source: c.source } }) },
  { name: 'GET issues?q=deadlock', make: () => ({ method: 'GET', api: 'issues', query: { q: 'deadlock' } }) },
  { name: 'GET issues?date= (a quiet day)', make: () => ({ method: 'GET', api: 'issues', query: { date: '2026-01-01' } }) },
  // A common tag on the quiet day: the day's rows decide, not the tag's (the first rare relation is read).
  { name: 'GET issues?tag=&date= (a quiet day)', make: () => ({ method: 'GET', api: 'issues', query: { tag: 'Tag checkout', date: '2026-01-01' } }) },
  { name: 'GET issues?severity=&date=', make: () => ({ method: 'GET', api: 'issues', query: { severity: 'ERROR', date: '2026-10-15' } }) },
  // The dashboard's list with its two most used filters (its default sort is priority).
  { name: 'GET groups?severity=&date= (priority)', make: () => ({ method: 'GET', api: 'groups', query: { limit: 50, sort: 'priority', severity: 'ERROR', date: '2026-10-15', include_stack: 0, include_context: 0 } }) },
  { name: 'GET error (detail)', make: (i, c) => ({ method: 'GET', api: 'error', query: { id: c.issueIds[Math.abs(i) % c.issueIds.length]! } }) },
  { name: 'GET summary', make: () => ({ method: 'GET', api: 'summary' }) },
  { name: 'GET sources', make: () => ({ method: 'GET', api: 'sources' }) },
  { name: 'GET modules', make: () => ({ method: 'GET', api: 'modules' }) },
]

/** Issue ids of an application's 200 most frequent issues, for detail reads. */
export async function busiestIssues(base: string, app: string): Promise<number[]> {
  const page = await send(base, { method: 'GET', api: 'issues', query: { limit: 200, sort: 'occurrences' } }, app)
  return page.body.data.map((item: { id: number }) => item.id)
}

/**
 * Measures every read on both corpora, alternating per scenario (the machine's load drifts; neighbours
 * measured together compare fairly), and returns the rows plus a growth note per read: scale ÷ small for
 * the median and the p95 — issue 18's target is ≤ 2× on d1 and ≤ 3× on the network drivers.
 */
export async function measureReadGrowth(base: string, small: Corpus, scale: Corpus, samples: number): Promise<{ measurements: Measurement[]; growth: Growth[] }> {
  const measurements: Measurement[] = []
  const growth: Growth[] = []
  for (const scenario of READ_SCENARIOS) {
    const a = await measure(`small: ${scenario.name}`, base, small.app, (i) => scenario.make(i, small), { count: samples, warmup: 3 })
    const b = await measure(`scale: ${scenario.name}`, base, scale.app, (i) => scenario.make(i, scale), { count: samples, warmup: 3 })
    measurements.push(a, b)
    growth.push({ name: scenario.name, small: a, scale: b, median: b.medianMs / a.medianMs, p95: b.p95Ms / a.p95Ms })
  }
  return { measurements, growth }
}

export interface Growth {
  readonly name: string
  readonly small: Measurement
  readonly scale: Measurement
  readonly median: number
  readonly p95: number
}

/** The growth table: one line per read, median and p95 on each corpus, the ratios, and the verdict. */
export function growthTable(driver: string, rows: readonly Growth[], limit: number): string {
  const lines = [`${driver}: read growth, small corpus → scale corpus (target ≤ ${limit}×, p95 included)`]
  const width = Math.max(...rows.map((row) => row.name.length))
  for (const row of rows) {
    const verdict = row.median <= limit && row.p95 <= limit ? 'ok' : 'OVER'
    const rt = row.small.roundTrips === row.scale.roundTrips ? `${row.scale.roundTrips} RT` : `${row.small.roundTrips}→${row.scale.roundTrips} RT`
    lines.push(
      `  ${row.name.padEnd(width)}  ${rt}  ${row.small.medianMs.toFixed(1)}/${row.small.p95Ms.toFixed(1)} → ${row.scale.medianMs.toFixed(1)}/${row.scale.p95Ms.toFixed(1)} ms  ${row.median.toFixed(2)}× / ${row.p95.toFixed(2)}×  ${verdict}`,
    )
  }
  return lines.join('\n')
}
