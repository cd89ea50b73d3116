import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { Statement } from '../../drivers/driver.ts'
import { importIncoming } from '../../worker/intake/import-incoming.ts'
import { openScope } from '../../worker/apps/open-scope.ts'
import { call, createTestApp, get, post } from './helpers/api.ts'
import { drainWithDeps, drainWithWorker, hookedDeps, recordingQueue, topicLines } from './import-harness.ts'
import { appDatabase, bucket, laravelLines, ok, processIncoming, putIncoming, upload } from './ingestion-helpers.ts'

/**
 * Issue 10: an upload is never lost (defect 6), the same bytes are never counted twice (defect 7), and a
 * `file` parameter never silently drops its body (defect 8). Docs: docs/api-ingestion.md, docs/ingestion.md
 * "Intake".
 */

async function lockApp(app: string): Promise<() => Promise<void>> {
  const db = await appDatabase(app)
  const key = db.db.dialect.quote('key')
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ')
  await db.db.execute({ sql: `INSERT INTO ${db.t.settings} (${key}, value, updated_at) VALUES ('import.lock', 'another-import', ?)`, args: [now] })
  return async () => {
    await db.db.execute({ sql: `DELETE FROM ${db.t.settings} WHERE ${key} = 'import.lock'` })
  }
}

async function occurrences(app: string): Promise<number> {
  const db = await appDatabase(app)
  return db.value(`SELECT COUNT(*) FROM ${db.t.occurrences}`)
}

async function staged(app: string): Promise<string[]> {
  return (await bucket.list({ prefix: `uploads/${app}/` })).objects.map((object) => object.key)
}

/** The release of the import lock: one DELETE of the lock row by its token (taking it is a batch of three). */
const isLockRelease = (statements: readonly Statement[]) =>
  statements.length === 1 && statements[0]!.sql.startsWith('DELETE FROM') && (statements[0]!.args ?? [])[0] === 'import.lock'
const isJobSuccess = (statements: readonly Statement[]) =>
  statements.some((statement) => statement.sql.includes('import_jobs') && statement.sql.startsWith('UPDATE') && (statement.args ?? []).includes('success'))

describe('import-incoming: uploads while another import runs (issue 10 defect 6)', { timeout: 60_000 }, () => {
  it('stores and accepts an upload (202 with the pending work and the job), then imports it once the lock is free', async () => {
    const app = await createTestApp('intake-accept')
    const recorder = recordingQueue()
    const testEnv = { ...env, IMPORT_QUEUE: recorder.queue }
    const release = await lockApp(app)
    const log = laravelLines(3)
    const accepted = await upload(app, 'billing/laravel.log', log, { env: testEnv as never })
    expect(accepted.status, accepted.text).toBe(202)
    expect(accepted.body).toMatchObject({
      accepted: true,
      files: 0,
      events: 0,
      processed: 0,
      errors: [],
      already_ingested: [],
      retention: null,
      pending: { files: 1, bytes: log.length },
      job: { kind: 'import-incoming', status: 'queued' },
    })
    const [key] = await staged(app)
    expect(key).toMatch(new RegExp(`^uploads/${app}/\\d{13}-[0-9a-f]{8}/billing/laravel\\.log$`))
    expect(await (await bucket.get(key!))!.text()).toBe(log)
    expect((await ok(get('import-incoming', { query: { app } }))).pending).toEqual({ files: 1, bytes: log.length })

    // The job's message arrives while the lock is still held: it waits (re-sent with a delay) and loses nothing.
    expect(await drainWithWorker(recorder.sent.splice(0, 1), testEnv)).toBe(1)
    expect(recorder.sent.map((message) => message.delaySeconds)).toEqual([10])
    await release()
    await drainWithWorker(recorder.sent, testEnv)
    const status = await ok(get('import-incoming', { query: { app } }))
    expect(status.data[0]).toMatchObject({ id: accepted.body.job.id, status: 'success', result: { events: 3, processed: 1 } })
    expect(status.pending).toEqual({ files: 0, bytes: 0 })
    expect(await occurrences(app)).toBe(3)
    expect(await staged(app)).toEqual([])
    const [source] = (await ok(get('sources', { query: { app } }))).data
    expect(source).toMatchObject({ path: `processed/${app}/billing/laravel.log`, module_slug: 'billing', occurrence_count: 3 })
  })

  it('keeps two uploads of the same path apart and registers them in arrival order (the second is an append)', async () => {
    const app = await createTestApp('intake-order')
    const recorder = recordingQueue()
    const testEnv = { ...env, IMPORT_QUEUE: recorder.queue }
    const release = await lockApp(app)
    const first = laravelLines(2)
    const grown = first + laravelLines(3, { from: 2 })
    expect((await upload(app, 'app.log', first, { env: testEnv as never })).status).toBe(202)
    await new Promise((resolve) => setTimeout(resolve, 5)) // a later millisecond: a later key
    expect((await upload(app, 'app.log', grown, { env: testEnv as never })).status).toBe(202)
    const keys = await staged(app)
    expect(keys).toHaveLength(2)
    expect(await Promise.all(keys.map(async (key) => (await bucket.get(key))!.text()))).toEqual([first, grown])
    await release()
    await drainWithWorker(recorder.sent, testEnv)
    // In the other order the shorter copy would be a rotation: 2 occurrences instead of 5.
    expect(await occurrences(app)).toBe(5)
    const db = await appDatabase(app)
    expect(await db.value(`SELECT SUM(count) FROM ${db.t.groups}`)).toBe(5)
  })

  it('does not strand an upload that arrives after a request run looked for the last time but before it let go of the lock', async () => {
    const app = await createTestApp('intake-request-race')
    const recorder = recordingQueue()
    let arrived = false
    const late = topicLines('late', 4)
    const deps = hookedDeps({ IMPORT_QUEUE: recorder.queue }, async (statements) => {
      if (arrived || !isLockRelease(statements)) return
      arrived = true
      // An upload stored now: its own lock attempt fails (the lock is still held), so this run must see it.
      await bucket.put(`uploads/${app}/0000000000001-00000000/late.log`, late)
    })
    const scope = await openScope(deps, app)
    const result = await importIncoming(deps, scope, { path: 'first.log', body: new TextEncoder().encode(topicLines('first', 2)), length: topicLines('first', 2).length })
    expect(result).toMatchObject({ events: 2, job: null })
    expect(arrived).toBe(true)
    expect(recorder.sent).toHaveLength(1) // the run started a job for what it found after releasing the lock
    await drainWithWorker(recorder.sent, { ...env, IMPORT_QUEUE: recorder.queue })
    expect(await occurrences(app)).toBe(6)
    expect(await staged(app)).toEqual([])
  })

  it('does not strand an upload accepted by a job that then closes (the upload relied on that job)', async () => {
    const app = await createTestApp('intake-job-race')
    const recorder = recordingQueue()
    const testEnv = { ...env, IMPORT_QUEUE: recorder.queue, SERVICE_CONFIG: JSON.stringify({ ingestion: { request_budget_bytes: 65_536 } }) }
    // Larger than the request's first 1 MiB chunk: the rest is the job's.
    const first = await upload(app, 'big.log', laravelLines(20_000), { env: testEnv as never })
    expect(first.status).toBe(202)
    const job = first.body.job
    let waiter: Awaited<ReturnType<typeof upload>> | undefined
    const deps = hookedDeps({ IMPORT_QUEUE: recorder.queue, SERVICE_CONFIG: testEnv.SERVICE_CONFIG }, async (statements) => {
      if (waiter || !isJobSuccess(statements)) return
      // The job has looked for uploads for the last time and is about to close, still holding the lock.
      waiter = await upload(app, 'late.log', topicLines('late', 5), { env: testEnv as never })
    })
    await drainWithDeps(recorder.sent.splice(0, 1), deps)
    expect(waiter!.status, waiter!.text).toBe(202)
    expect(waiter!.body).toMatchObject({ accepted: true, job: { id: job.id }, pending: { files: 1 } })
    expect((await ok(get('import-incoming', { query: { app } }))).data.find((candidate: { id: number }) => candidate.id === job.id).status).toBe('success')
    // The closing job looked again after releasing the lock and started the next one.
    expect(recorder.sent).toHaveLength(1)
    expect(recorder.sent[0]!.body.job).not.toBe(job.id)
    await drainWithWorker(recorder.sent, testEnv)
    expect(await occurrences(app)).toBe(20_005)
    expect(await staged(app)).toEqual([])
  })

  it('still answers "Process logs" while locked with the reference\'s 400, storing nothing', async () => {
    const app = await createTestApp('intake-process-busy')
    const release = await lockApp(app)
    const busy = await processIncoming(app)
    expect(busy.status).toBe(400)
    expect(busy.body).toEqual({ error: 'An incoming import is already running for this application.' })
    expect(await staged(app)).toEqual([])
    await release()
  })
})

describe('import-incoming: the same bytes under another name (issue 10 defect 7)', { timeout: 60_000 }, () => {
  it('reports an identical file as already imported, counts nothing twice, and imports an appended copy\'s tail', async () => {
    const app = await createTestApp('intake-dup')
    const log = topicLines('payments', 4)
    expect(await ok(upload(app, 'billing/laravel.log', log))).toMatchObject({ events: 4, skipped: 0, already_ingested: [] })
    const copy = await ok(upload(app, 'billing/laravel.log.1', log))
    expect(copy).toMatchObject({ files: 1, events: 0, skipped: 1, processed: 1, already_ingested: [{ path: 'billing/laravel.log.1', same_as: 'billing/laravel.log' }] })
    expect(await occurrences(app)).toBe(4)
    // The copy is a file of its own: appended later, only its new bytes are read.
    const grown = await ok(upload(app, 'billing/laravel.log.1', log + topicLines('payments', 2, 4)))
    expect(grown).toMatchObject({ events: 2, skipped: 0, already_ingested: [] })
    expect(await occurrences(app)).toBe(6)
    // Grown to the same bytes as the copy, the original has nothing new either.
    expect(await ok(upload(app, 'billing/laravel.log', log + topicLines('payments', 2, 4)))).toMatchObject({
      events: 0,
      already_ingested: [{ path: 'billing/laravel.log', same_as: 'billing/laravel.log.1' }],
    })
    const db = await appDatabase(app)
    expect(await db.value(`SELECT SUM(count) FROM ${db.t.groups}`)).toBe(6)
    const sources = (await ok(get('sources', { query: { app } }))).data.map((file: { channel: string; occurrence_count: number }) => [file.channel, file.occurrence_count])
    expect(sources.sort()).toEqual([['laravel.log', 4], ['laravel.log.1', 2]])
  })

  it('recognises duplicates within one run and among dropped files, but not across modules', async () => {
    const app = await createTestApp('intake-dup-run')
    const log = topicLines('shipping', 3)
    await putIncoming(app, 'a.log', log)
    await putIncoming(app, 'b.log', log)
    await putIncoming(app, 'billing/c.log', log)
    const result = await ok(processIncoming(app))
    // Another module's copy holds that module's events (the module is part of every event).
    expect(result).toMatchObject({ files: 3, processed: 3, events: 6, skipped: 1, already_ingested: [{ path: 'b.log', same_as: 'a.log' }] })
    expect(await occurrences(app)).toBe(6)
  })
})

describe('import-incoming: the file parameter (issue 10 defect 8)', { timeout: 60_000 }, () => {
  it('refuses an empty, blank or slash-only file with 422 and stores nothing', async () => {
    const app = await createTestApp('intake-empty-file')
    for (const file of ['', '   ', '/', '//', ' / ']) {
      const response = await call('POST', 'import-incoming', { query: { app, file }, body: laravelLines(2) })
      expect(response.status, JSON.stringify(file)).toBe(422)
      expect(response.body).toEqual({ error: 'file is empty: name the uploaded log file, e.g. file=billing/laravel.log.' })
    }
    expect(await staged(app)).toEqual([])
    expect((await bucket.list({ prefix: `incoming/${app}/` })).objects).toEqual([])
    expect(await occurrences(app)).toBe(0)
  })

  it('refuses a body that is not a JSON command when there is no file parameter', async () => {
    const app = await createTestApp('intake-no-file')
    const response = await call('POST', 'import-incoming', { query: { app }, body: laravelLines(2) })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({
      error: 'Name the uploaded log file with ?file=<module>/<name> (e.g. file=billing/laravel.log); without file the body may only be a JSON object such as {"retry": 3}.',
    })
    expect(await ok(post('import-incoming', {}, { query: { app } }))).toMatchObject({ files: 0, job: null })
    expect(await ok(call('POST', 'import-incoming', { query: { app } }))).toMatchObject({ files: 0, job: null })
  })
})
