/**
 * `npm run bench [-- --drivers d1,neon] [--count 25] [--scale [--scale-events N]] [--only ingest]` — database round trips per request for every
 * endpoint on every driver, plus latency medians (design.md §5: round trips are the stable figure; the
 * machine is noisy, so compare medians within one run). Each driver runs the real worker under
 * `wrangler dev` against a real engine (local protocol servers for libSQL, Neon and PlanetScale).
 */
import { parseArgs } from 'node:util'
import { perRunDatabaseName, startDatabaseTargets, type DriverTarget } from './database-targets.ts'
import { isMysqlReachable, isPostgresReachable } from './local-engines.ts'
import { startWorker } from './worker-process.ts'
import { send, type Measurement } from './bench/measure.ts'
import { coreScenarios, runScenarios, seedIssues } from './bench/scenarios.ts'
import { ingestionBench } from './bench/ingestion.ts'
import { printTable } from './bench/report.ts'
import { vacuumPostgres } from './bench/vacuum.ts'
import { bundleSizes } from './bench/bundle-size.ts'
import { httpBatchBench, runtimeCeiling, sentryIngestBench } from './bench/sentry-ingest.ts'

async function main() {
  const { values } = parseArgs({
    options: { drivers: { type: 'string' }, count: { type: 'string', default: '25' }, scale: { type: 'boolean', default: false }, 'scale-events': { type: 'string' }, only: { type: 'string' } },
  })
  // `--only ingest`: just issue 12's 32-sender Sentry ingest figure, on the local default database.
  if (values.only === 'ingest') return ingestOnly()
  const available: DriverTarget[] = ['d1', 'libsql', ...((await isPostgresReachable()) ? ['neon' as const] : []), ...((await isMysqlReachable()) ? ['planetscale' as const] : [])]
  const drivers = values.drivers ? (values.drivers.split(',') as DriverTarget[]).filter((d) => available.includes(d)) : available
  const count = Number(values.count)
  const targets = await startDatabaseTargets(drivers, perRunDatabaseName('loupe_bench'))
  const results = new Map<DriverTarget, Measurement[]>()
  const notes: string[] = []
  try {
    for (const driver of drivers) {
      console.log(`\n▶ ${driver}`)
      // A large request budget keeps the throughput upload inside one request: locally, queue delivery adds
      // seconds of wait that a deployed queue does not (docs/ingestion.md "Background jobs").
      const config = { server_timing: true, ingestion: { request_budget_bytes: 256 * 1024 * 1024 } }
      const worker = await startWorker({ ...targets.bindings[driver], SERVICE_CONFIG: JSON.stringify(config) }, `bench-${driver}`)
      try {
        const created = await send(worker.url, { method: 'POST', api: 'applications', body: { name: 'Bench', id: 'bench' } })
        if (created.status !== 201) throw new Error(`could not create the bench application: ${JSON.stringify(created.body)}`)
        const seed = await seedIssues(worker.url, 'bench', 250)
        const measurements = await runScenarios(worker.url, 'bench', coreScenarios(seed, driver), count)
        const ingestion = await ingestionBench(worker.url, 'bench', driver, { count, scale: values.scale, scaleEvents: scaleEvents(driver, values['scale-events']),
          // Hosted Neon vacuums on its own; the local PostgreSQL may not (tools/bench/vacuum.ts).
          afterImport: driver === 'neon' ? () => vacuumPostgres(targets.bindings.neon!.DATABASE_URL!) : undefined,
        })
        measurements.push(...ingestion.measurements)
        notes.push(...ingestion.notes.map((note) => `${driver}: ${note}`))
        results.set(driver, measurements)
      } finally {
        await worker.stop()
      }
    }
  } finally {
    await targets.stop()
  }
  printTable(results)
  console.log(`\n${[...bundleSizes(), ...notes].join('\n')}`)
}

/**
 * Occurrences in the scale corpus: 1,000,000 on d1 (issue 18's figure); the network drivers import through
 * local protocol servers several times slower, so their default is 300,000 (same 10 events per issue).
 */
function scaleEvents(driver: DriverTarget, option: string | undefined): number {
  if (option !== undefined) return Number(option)
  return driver === 'd1' ? 1_000_000 : 300_000
}

async function ingestOnly(): Promise<void> {
  const worker = await startWorker({ SERVICE_SECRET: 'bench-secret', SERVICE_CONFIG: JSON.stringify({ ingest: { rate_max_events: 10_000_000 } }) }, 'bench-ingest')
  try {
    const created = await send(worker.url, { method: 'POST', api: 'applications', body: { name: 'Sentry bench', id: 'sentry-bench' } })
    if (created.status !== 201) throw new Error(`could not create the bench application: ${JSON.stringify(created.body)}`)
    await send(worker.url, { method: 'POST', api: 'plugins', body: { id: 'http_ingest', enabled: true } }, 'sentry-bench')
    const settings = await send(worker.url, { method: 'GET', api: 'ingest-settings' }, 'sentry-bench')
    // A warm-up round, then the measured one.
    await sentryIngestBench(worker.url, settings.body.dsn, { events: 500, senders: 32, app: 'sentry-bench' })
    const figures = await sentryIngestBench(worker.url, settings.body.dsn, { events: 6000, senders: 32, app: 'sentry-bench' })
    const batches = await httpBatchBench(worker.url, 'sentry-bench', settings.body.key, { requests: 400, perRequest: 100, senders: 32 })
    console.log([await runtimeCeiling(worker.url, 3000), ...figures.notes, batches].join('\n'))
  } finally {
    await worker.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
