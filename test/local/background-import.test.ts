/**
 * A background import under `wrangler dev`, with the real local Queue, D1 and R2 (what `npm start` runs).
 * Locally one workerd thread runs the worker, D1 and R2, so these tests check that an import lets other
 * requests in while it runs (docs/ingestion.md "Local development").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateLaravelLog } from '../../tools/bench/log-generator.ts'
import { startWorker, type RunningWorker } from '../../tools/worker-process.ts'
import { apiClient } from '../e2e/helpers/api.ts'

let worker: RunningWorker
let api: ReturnType<typeof apiClient>['call']

beforeAll(async () => {
  // A 1 MiB request budget: the upload request reads one chunk and the Queue consumer does the rest.
  worker = await startWorker({ SERVICE_CONFIG: JSON.stringify({ ingestion: { request_budget_bytes: 1_048_576 } }) }, 'local-import')
  api = apiClient(worker.url).call
}, 120_000)

afterAll(async () => {
  await worker?.stop()
})

interface Job {
  readonly status: string
  readonly bytes_done: number
  readonly bytes_total: number
  readonly events: number
  readonly result: { events: number } | null
}

describe('a background import under wrangler dev', { timeout: 120_000 }, () => {
  it('answers status requests while the Queue consumer imports, each showing more progress', async () => {
    const events = 60_000
    const log = new TextDecoder().decode(generateLaravelLog({ events, issues: 500, seed: 11 }))
    const first = await api<{ events: number; job: Job }>('import-incoming', { query: { file: 'big/laravel.log' }, raw: log })
    expect(first.job).toMatchObject({ status: 'queued', bytes_done: 0 })
    expect(first.job.bytes_total).toBeGreaterThan(10_000_000)

    // One request at a time, as the dashboard polls: each must be answered while the job still runs.
    // Before the import yielded between chunks, such a request waited for the whole job — or, arriving as
    // the consumer started, until some other request woke the runtime.
    const running: number[] = []
    let job: Job
    for (;;) {
      job = (await api<{ data: Job[] }>('import-incoming')).data[0]!
      if (job.status !== 'queued' && job.status !== 'running') break
      if (job.status === 'running') running.push(job.bytes_done)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const distinct = [...new Set(running)]
    expect(distinct.length).toBeGreaterThanOrEqual(2)
    expect(distinct).toEqual([...distinct].sort((a, b) => a - b))
    expect(distinct.at(-1)).toBeLessThan(first.job.bytes_total)
    expect(job).toMatchObject({ status: 'success', bytes_done: first.job.bytes_total })
    expect(job.result!.events + first.events).toBe(events)
  })
})
