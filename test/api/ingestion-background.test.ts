import { describe, expect, it } from 'vitest'
import { createTestApp, get } from './helpers/api.ts'
import { laravelLines, occurrenceStats, ok, upload, waitForJob } from './ingestion-helpers.ts'

/**
 * A file larger than one request finishes in the background, whatever runs the jobs: the Queue consumer
 * on Workers (api-<driver>), the in-process job queue on Deno (deno-<driver>). How the Queue delivers,
 * retries and re-enqueues is tested message by message in ingestion-jobs.test.ts.
 */
const SMALL_REQUEST = JSON.stringify({ ingestion: { request_budget_bytes: 65_536 } })

describe('import-incoming: files larger than one request (docs/ingestion.md "Background jobs")', { timeout: 60_000 }, () => {
  it('continues in a background job and reports progress until the job succeeds', async () => {
    const app = await createTestApp('job-queue')
    const lines = 36_000 // about 2.2 MB: the request reads one 1 MiB chunk, the job the rest
    const first = await upload(app, 'big/laravel.log', laravelLines(lines), { env: { SERVICE_CONFIG: SMALL_REQUEST } })
    expect(first.status, first.text).toBe(202)
    expect(first.body).toMatchObject({ files: 1, processed: 1, retention: null, job: { kind: 'import-incoming', status: 'queued', bytes_done: 0 } })
    expect(first.body.events).toBeGreaterThan(0)
    expect(first.body.events).toBeLessThan(lines)
    expect(first.body.job.bytes_total).toBeGreaterThan(1_000_000)

    const job = await waitForJob(app)
    expect(job).toMatchObject({ status: 'success', files_done: 1, bytes_done: first.body.job.bytes_total, bytes_total: first.body.job.bytes_total, current_file: null })
    expect(job.result.events + first.body.events).toBe(lines)
    expect(job.result.retention).toMatchObject({ enabled: false })
    expect(job.events).toBe(job.result.events)
    expect(await occurrenceStats(app)).toEqual({ occurrences: lines, distinct: lines, count: lines, days: lines })
    expect((await ok(get('import-incoming', { query: { app } }))).pending).toEqual({ files: 0, bytes: 0 })
  })

})
