import { generateLaravelLog } from './log-generator.ts'
import { measure, send, type Measurement } from './measure.ts'
import { busiestIssues, growthTable, measureReadGrowth } from './read-scenarios.ts'

export interface IngestionBench {
  readonly measurements: Measurement[]
  readonly notes: string[]
}

/**
 * Issue 4's figures: round trips of an upload and of each further 1,000-event batch, import throughput,
 * and the read side (summary, sources, source, date/source filters) over the imported data. With `scale`,
 * 1,000,000 occurrences over 100,000 issues are imported first and the list and detail are measured on them.
 */
export async function ingestionBench(base: string, app: string, driver: string, options: { count: number; scale: boolean; scaleEvents: number; afterImport?: () => Promise<void> }): Promise<IngestionBench> {
  const notes: string[] = []
  const measurements: Measurement[] = []

  // The marginal cost of events, separated from the fixed cost of an import call (lock, file registration,
  // archive, result): the difference between a 1,000-event and an 11,000-event upload, per 1,000 events.
  const small = await upload(base, app, 'rt/small.log', generateLaravelLog({ events: 1000, issues: 50, seed: 7 }))
  const large = await upload(base, app, 'rt/large.log', generateLaravelLog({ events: 11_000, issues: 50, seed: 8 }))
  measurements.push({ name: 'POST import-incoming 1,000 events', samples: 1, roundTrips: small.roundTrips, medianMs: small.milliseconds, p95Ms: small.milliseconds, failures: small.status === 200 ? 0 : 1 })
  const perThousand = (large.roundTrips - small.roundTrips) / 10
  notes.push(`a 1,000-event upload: ${small.roundTrips} round trips in all; an 11,000-event one: ${large.roundTrips} — ${perThousand.toFixed(1)} round trips per further 1,000 events`)

  const events = driver === 'd1' ? 100_000 : 30_000
  const log = generateLaravelLog({ events, issues: 2000, offset: 1000, seed: 9 })
  const started = performance.now()
  const result = await upload(base, app, 'throughput/laravel.log', log)
  await waitForJobs(base, app)
  const seconds = (performance.now() - started) / 1000
  notes.push(`imported ${events.toLocaleString('en')} events (${(log.length / 1048576).toFixed(1)} MiB, ${result.body.groups ?? '?'} issues) in ${seconds.toFixed(2)} s, upload included: ${Math.round(events / seconds).toLocaleString('en')} events/s`)

  const detail = await send(base, { method: 'GET', api: 'groups', query: { limit: 1 } }, app)
  const issueId = detail.body.items?.[0]?.id
  const occurrence = (await send(base, { method: 'GET', api: 'error', query: { id: issueId, limit: 1 } }, app)).body.occurrences?.[0]?.id
  const read = [
    { name: 'GET summary', make: () => ({ method: 'GET', api: 'summary' }) },
    { name: 'GET sources', make: () => ({ method: 'GET', api: 'sources' }) },
    { name: 'GET source (raw event)', make: () => ({ method: 'GET', api: 'source', query: { occurrence } }) },
    { name: 'GET issues?date=', make: () => ({ method: 'GET', api: 'issues', query: { date: '2026-10-15' } }) },
    { name: 'GET issues?source=', make: () => ({ method: 'GET', api: 'issues', query: { source: 'laravel.log' } }) },
    { name: 'GET error (ingested detail)', make: () => ({ method: 'GET', api: 'error', query: { id: issueId } }) },
  ]
  for (const scenario of read) measurements.push(await measure(scenario.name, base, app, scenario.make, { count: options.count, warmup: 2 }))

  if (options.scale) measurements.push(...(await scaleBench(base, app, driver, options.scaleEvents, notes, options.afterImport)))
  return { measurements, notes }
}

/**
 * Issue 18: `events` occurrences (1,000,000 by default) over a tenth as many issues in a fresh application,
 * imported in files of 50,000 events under module `scale/`, then every read of READ_SCENARIOS measured on
 * the small corpus (`small`, the application measured above) and on this one, with the growth of each.
 */
async function scaleBench(base: string, small: string, driver: string, events: number, notes: string[], afterImport?: () => Promise<void>): Promise<Measurement[]> {
  const app = 'scale'
  await send(base, { method: 'POST', api: 'applications', body: { name: 'Scale', id: app } })
  // The same tag rule as the small corpus (seedIssues), so `tag=` matches in both.
  await send(base, { method: 'POST', api: 'tags', body: { name: 'Tag checkout', match_word: 'checkout' } }, app)
  const started = performance.now()
  const perFile = 50_000
  const files = Math.max(1, Math.round(events / perFile))
  let generating = 0
  for (let i = 0; i < files; i++) {
    const generated = performance.now()
    const log = generateLaravelLog({ events: perFile, issues: (files * perFile) / 10, seed: 100 + i })
    generating += performance.now() - generated
    // A 503 (the database did not answer in time — a loaded machine) is retried: the same path and bytes
    // again are an unchanged file or the rest of one (docs/ingestion.md), never counted twice.
    for (let attempt = 1; ; attempt++) {
      const response = await upload(base, app, `scale/part-${i}-laravel.log`, log)
      await waitForJobs(base, app)
      if (response.status === 200 || response.status === 202) break
      if (response.status !== 503 || attempt === 3) throw new Error(`scale upload ${i}: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`)
    }
  }
  const seconds = (performance.now() - started - generating) / 1000
  if (afterImport) await afterImport()
  const total = (await send(base, { method: 'GET', api: 'summary' }, app)).body.total
  notes.push(`scale: ${total.occurrences.toLocaleString('en')} occurrences, ${total.groups_count.toLocaleString('en')} issues imported in ${seconds.toFixed(1)} s (${Math.round(total.occurrences / seconds).toLocaleString('en')} events/s)`)
  const smallTotal = (await send(base, { method: 'GET', api: 'summary' }, small)).body.total
  notes.push(`small corpus: ${smallTotal.occurrences.toLocaleString('en')} occurrences, ${smallTotal.groups_count.toLocaleString('en')} issues`)
  const { measurements, growth } = await measureReadGrowth(
    base,
    { app: small, issueIds: await busiestIssues(base, small), module: 'throughput', source: 'laravel.log' },
    { app, issueIds: await busiestIssues(base, app), module: 'scale', source: 'laravel.log' },
    50,
  )
  const table = growthTable(driver, growth, driver === 'd1' ? 2 : 3)
  // Printed now as well: a later driver's failure must not lose this one's figures.
  console.log(table)
  notes.push(table)
  return measurements
}

async function upload(base: string, app: string, file: string, bytes: Uint8Array) {
  return send(base, { method: 'POST', api: 'import-incoming', query: { file }, raw: bytes }, app)
}

/**
 * Waits until the application has no queued or running import job. A poll that gets no answer in 20 s is
 * sent again: under `wrangler dev` a request can wait until another one arrives (docs/ingestion.md "Local
 * development"), and on a loaded machine the bench otherwise died on undici's 5-minute header timeout.
 */
async function waitForJobs(base: string, app: string): Promise<void> {
  let idleSince: number | null = null
  for (;;) {
    const jobs = await Promise.race([
      send(base, { method: 'GET', api: 'import-incoming' }, app).catch(() => null),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000)),
    ])
    if (jobs !== null) {
      const active = (jobs.body.data ?? []).some((job: { status: string }) => job.status === 'queued' || job.status === 'running')
      const pending = jobs.body.pending?.bytes > 0
      if (!active && !pending) return
      // An upload stored with no job to import it (seen on the PlanetScale leg under load: the file waited,
      // the database idle) is imported by a plain import-incoming call after 30 s.
      idleSince = !active && pending ? (idleSince ?? performance.now()) : null
      if (idleSince !== null && performance.now() - idleSince > 30_000) {
        await send(base, { method: 'POST', api: 'import-incoming' }, app)
        idleSince = null
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}
