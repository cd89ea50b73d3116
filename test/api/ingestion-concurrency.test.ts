import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createTestApp, get } from './helpers/api.ts'
import { drainWithWorker, recordingQueue, thirtyTwoUploads } from './import-harness.ts'
import { PATIENT_DATABASE } from './helpers/fixtures.ts'
import { appDatabase, bucket, ok, upload } from './ingestion-helpers.ts'

/**
 * Issue 10 defect 6, as the hostile harness ran it: 32 clients upload at once and never retry. Before, every
 * upload that met a running import got `400 already running` and its log was gone (226 of 506 requests).
 * Now each upload is stored before the lock is asked for and imported by whichever run comes next, so after
 * the queue has drained every event is counted exactly once — distinct files, the same file uploaded four
 * times, and the same bytes under two names alike.
 */
describe('import-incoming: 32 concurrent uploaders that never retry (issue 10 defect 6)', { timeout: 120_000 }, () => {
  it('counts every event exactly once', async () => {
    const app = await createTestApp('concurrent')
    const recorder = recordingQueue()
    // Exact counts under concurrency, not the deadline (database-faults.test.ts tests that): in CI the protocol servers
    // share the test runner's Node process with the other legs, so a write may queue there past the 10 s deadline.
    const testEnv = { ...env, IMPORT_QUEUE: recorder.queue, SERVICE_CONFIG: PATIENT_DATABASE }
    const { uploads, expected } = thirtyTwoUploads((i) => 1 + ((i * 7) % 23))
    expect(uploads).toHaveLength(32)

    const responses = await Promise.all(uploads.map((file) => upload(app, file.path, file.body, { env: testEnv as never })))
    for (const response of responses) expect([200, 202], response.text).toContain(response.status)
    // The point of the test: uploads did meet a running import, and were accepted rather than refused.
    expect(responses.filter((response) => response.body.accepted === true).length).toBeGreaterThan(0)

    await drainWithWorker(recorder.sent, testEnv)
    const status = await ok(get('import-incoming', { query: { app } }))
    expect(status.pending).toEqual({ files: 0, bytes: 0 })
    expect(status.failed).toEqual([])
    expect(status.data.filter((job: { status: string }) => job.status !== 'success')).toEqual([])
    expect((await bucket.list({ prefix: `uploads/${app}/` })).objects).toEqual([])

    const db = await appDatabase(app)
    const total = Object.values(expected).reduce((sum, count) => sum + count, 0)
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.occurrences}`)).toBe(total)
    const rows = await db.rows<{ title: string; count: number }>(`SELECT title, count FROM ${db.t.groups}`)
    expect(Object.fromEntries(rows.map((row) => [row.title, Number(row.count)]))).toEqual(expected)
    expect(await db.value(`SELECT SUM(count) FROM ${db.t.groupDays}`)).toBe(total)
    const sources = (await ok(get('sources', { query: { app, limit: 100 } }))).data
    expect(sources).toHaveLength(29) // 26 + same.log + both twins
    expect(sources.reduce((sum: number, file: { occurrence_count: number }) => sum + file.occurrence_count, 0)).toBe(total)
  })
})
