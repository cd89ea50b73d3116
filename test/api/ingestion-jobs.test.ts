import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import worker from '../../worker/index.ts'
import { createApp, createDeps } from '../../worker/app.ts'
import { cloudflareRuntime } from '../../worker/platform/cloudflare/cloudflare-runtime.ts'
import type { CloudflareEnv as Env } from '../../worker/platform/cloudflare/cloudflare-env.ts'
import type { ImportMessage } from '../../worker/jobs/job-message.ts'
import { openScope } from '../../worker/apps/open-scope.ts'
import { maintainApplication } from '../../worker/maintenance/maintain-application.ts'
import { createTestApp, get } from './helpers/api.ts'
import { appDatabase, laravelLines, occurrenceStats, ok, processIncoming, upload, waitForJob } from './ingestion-helpers.ts'

const SMALL_REQUEST = JSON.stringify({ ingestion: { request_budget_bytes: 65_536 } })
const SMALL_EVERYTHING = JSON.stringify({ ingestion: { request_budget_bytes: 65_536, job_budget_bytes: 65_536 } })

/** A queue binding that records what is sent instead of delivering it (the test delivers by hand). */
function recordingQueue(onSend?: () => Promise<void>) {
  const sent: { body: ImportMessage; delaySeconds?: number }[] = []
  return {
    sent,
    queue: {
      send: async (body: ImportMessage, options?: { delaySeconds?: number }) => {
        await onSend?.()
        sent.push({ body, delaySeconds: options?.delaySeconds })
      },
      sendBatch: async () => {},
    },
  }
}

/** Runs the worker's `queue` handler on one message, as the Queue would. */
async function deliver(message: ImportMessage, testEnv: Record<string, unknown>) {
  const batch = createMessageBatch<ImportMessage>('loupe-imports', [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: message }])
  const ctx = createExecutionContext()
  await worker.queue(batch as MessageBatch<unknown>, testEnv as unknown as Env, ctx)
  return getQueueResult(batch, ctx)
}

describe('import-incoming: files larger than one request (docs/ingestion.md "Background jobs")', { timeout: 60_000 }, () => {
  it('runs one budget per queue message, re-enqueueing itself with growing progress', async () => {
    const app = await createTestApp('job-steps')
    const recorder = recordingQueue()
    const stepEnv = { ...env, SERVICE_CONFIG: SMALL_EVERYTHING, IMPORT_QUEUE: recorder.queue }
    const lines = 40_000
    const first = await upload(app, 'big/laravel.log', laravelLines(lines), { env: stepEnv as never })
    expect(first.status).toBe(202)
    const progress: number[] = []
    let steps = 0
    while (recorder.sent.length > 0) {
      const message = recorder.sent.shift()!
      const result = await deliver(message.body, stepEnv)
      expect(result.explicitAcks).toHaveLength(1)
      steps++
      const job = (await ok(get('import-incoming', { query: { app } }))).data[0]
      progress.push(job.bytes_done)
      if (steps > 10) throw new Error('job did not finish')
    }
    expect(steps).toBeGreaterThanOrEqual(2)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    const job = (await ok(get('import-incoming', { query: { app } }))).data[0]
    expect(job).toMatchObject({ status: 'success', files_done: 1 })
    expect(job.result.events + first.body.events).toBe(lines)
    expect(await occurrenceStats(app)).toEqual({ occurrences: lines, distinct: lines, count: lines, days: lines })
    // The file's counts survive the merge across the job's messages: one entry, summed, and with the
    // request's own part every line is accounted for.
    const [requestPart] = first.body.file_results
    expect(job.result.file_results).toEqual([
      { path: 'big/laravel.log', format: 'laravel', read: lines - requestPart.read, stored: lines - requestPart.stored, skipped: {}, already_stored: 0, unparseable: 0 },
    ])
    expect(requestPart).toMatchObject({ path: 'big/laravel.log', read: first.body.events, stored: first.body.events })
  })

  it('sends every job message only after releasing the import lock, so no step waits for its own sender', async () => {
    const app = await createTestApp('job-handover')
    const db = await appDatabase(app)
    const key = db.db.dialect.quote('key')
    const lockHeldAtSend: boolean[] = []
    const recorder = recordingQueue(async () => {
      lockHeldAtSend.push(Number(await db.value(`SELECT COUNT(*) FROM ${db.t.settings} WHERE ${key} = 'import.lock'`)) > 0)
    })
    const stepEnv = { ...env, SERVICE_CONFIG: SMALL_EVERYTHING, IMPORT_QUEUE: recorder.queue }
    const lines = 40_000
    const first = await upload(app, 'big/laravel.log', laravelLines(lines), { env: stepEnv as never })
    expect(first.status).toBe(202)
    for (let steps = 0; recorder.sent.length > 0; steps++) {
      if (steps > 10) throw new Error('job did not finish')
      const message = recorder.sent.shift()!
      expect(message.delaySeconds).toBeUndefined()
      await deliver(message.body, stepEnv)
    }
    // The request's message and at least one job step's; none sent under the lock.
    expect(lockHeldAtSend.length).toBeGreaterThanOrEqual(2)
    expect(lockHeldAtSend).toEqual(lockHeldAtSend.map(() => false))
    const job = (await ok(get('import-incoming', { query: { app } }))).data[0]
    expect(job).toMatchObject({ status: 'success', files_done: 1 })
    expect(job.result.events + first.body.events).toBe(lines)
  })

  it('re-sends a job message with a delay while another run holds the lock', async () => {
    const app = await createTestApp('job-locked')
    const recorder = recordingQueue()
    const stepEnv = { ...env, SERVICE_CONFIG: SMALL_REQUEST, IMPORT_QUEUE: recorder.queue }
    await upload(app, 'big/laravel.log', laravelLines(30_000), { env: stepEnv as never })
    const message = recorder.sent.shift()!
    const db = await appDatabase(app)
    const key = db.db.dialect.quote('key')
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ')
    await db.db.execute({ sql: `INSERT INTO ${db.t.settings} (${key}, value, updated_at) VALUES ('import.lock', 'request', ?)`, args: [now] })
    await deliver(message.body, stepEnv)
    expect(recorder.sent).toEqual([{ body: message.body, delaySeconds: 10 }])
    expect((await ok(get('import-incoming', { query: { app } }))).data[0].status).toBe('queued')
    await db.db.execute({ sql: `DELETE FROM ${db.t.settings} WHERE ${key} = 'import.lock'` })
    await deliver(recorder.sent.shift()!.body, stepEnv)
    expect((await ok(get('import-incoming', { query: { app } }))).data[0].status).toBe('success')
  })
})

describe('import-incoming: interrupted imports resume without duplicates (reference §2.9)', { timeout: 60_000 }, () => {
  it('continues from the checkpoint on every later call when no queue is bound', async () => {
    const app = await createTestApp('job-resume')
    const noQueue = { SERVICE_CONFIG: SMALL_REQUEST, IMPORT_QUEUE: undefined } as never
    const lines = 40_000
    const first = await upload(app, 'big/laravel.log', laravelLines(lines), { env: noQueue })
    expect(first.status).toBe(202)
    expect(first.body.job).toMatchObject({ status: 'queued', message: 'No import queue is bound (IMPORT_QUEUE); the cron trigger continues this import.' })
    let total = first.body.events
    let calls = 1
    for (;;) {
      const next = await processIncoming(app, { env: noQueue })
      calls++
      total += next.body.events
      if (next.status === 200) break
      expect(next.status).toBe(202)
      expect(next.body.job.id).toBe(first.body.job.id)
      expect(calls).toBeLessThan(10)
    }
    expect(calls).toBeGreaterThanOrEqual(3)
    expect(total).toBe(lines)
    expect(await occurrenceStats(app)).toEqual({ occurrences: lines, distinct: lines, count: lines, days: lines })
    const job = (await ok(get('import-incoming', { query: { app } }))).data[0]
    expect(job).toMatchObject({ status: 'success', message: 'Completed by a later import run.' })
  })

  it('is finished by the cron trigger (inline, without a queue)', async () => {
    const app = await createTestApp('job-cron')
    const noQueue = { SERVICE_CONFIG: SMALL_REQUEST, IMPORT_QUEUE: undefined }
    const first = await upload(app, 'big/laravel.log', laravelLines(30_000), { env: noQueue as never })
    expect(first.status).toBe(202)
    const ctx = createExecutionContext()
    const deps = createDeps({ ...env, ...noQueue } as unknown as Env, ctx, createApp({ runtime: cloudflareRuntime }))
    await maintainApplication(deps, await openScope(deps, app))
    const job = (await ok(get('import-incoming', { query: { app } }))).data[0]
    expect(job).toMatchObject({ status: 'success', kind: 'import-incoming' })
    expect(job.result.events + first.body.events).toBe(30_000)
    expect((await occurrenceStats(app)).occurrences).toBe(30_000)
  })

  it('marks a job that stopped reporting as failed (900 s), and a later import resumes its file', async () => {
    const app = await createTestApp('job-stale')
    const noQueue = { SERVICE_CONFIG: SMALL_REQUEST, IMPORT_QUEUE: undefined } as never
    const first = await upload(app, 'big/laravel.log', laravelLines(30_000), { env: noQueue })
    const db = await appDatabase(app)
    await db.db.execute({ sql: `UPDATE ${db.t.importJobs} SET status = 'running', updated_at = '2000-01-01 00:00:00'` })
    const jobs = await ok(get('import-incoming', { query: { app } }))
    expect(jobs.data[0]).toMatchObject({
      id: first.body.job.id,
      status: 'failed',
      message: 'The import worker stopped responding; marked interrupted after timeout. Run the import again to resume it.',
    })
    expect(jobs.pending.files).toBe(1)
    const resumed = await processIncoming(app)
    expect(resumed.status).toBe(200)
    expect(first.body.events + resumed.body.events).toBe(30_000)
  })
})
