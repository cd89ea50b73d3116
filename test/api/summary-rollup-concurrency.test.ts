import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createTestApp, get, post } from './helpers/api.ts'
import { PATIENT_DATABASE } from './helpers/fixtures.ts'
import { drainWithWorker, letters, recordingQueue, topicLines } from './import-harness.ts'
import { ok, upload } from './ingestion-helpers.ts'
import { expectIssueRollupExact } from './summary-rollup-helpers.ts'

/**
 * The rollup's rows are hot: every import of a log type adds to one row, and a status change moves an issue
 * between two. Imports upserting issues while triage changes the status of those same issues lock issue rows
 * and rollup rows in opposite orders — the deadlock migration 0016 avoids on PostgreSQL with commit-time
 * triggers behind one advisory lock, and that MySQL's driver retries. Whatever the interleaving, every write
 * must succeed and the rollup must end equal to the issues (modelled on concurrent-triage.test.ts).
 */
describe('issue_rollup under concurrent imports and status changes of the same issues (migration 0016)', { timeout: 180_000 }, () => {
  it('ends exact, with every event counted and every status change answered 200', async () => {
    const app = await createTestApp('rollup-storm')
    const recorder = recordingQueue()
    const testEnv = { ...env, IMPORT_QUEUE: recorder.queue, SERVICE_CONFIG: PATIENT_DATABASE }
    const q = { query: { app }, env: { SERVICE_CONFIG: PATIENT_DATABASE } }
    const topics = Array.from({ length: 6 }, (_, i) => `storm${letters(i)}`)
    await ok(upload(app, 'shop/seed.log', topics.map((topic) => topicLines(topic, 1)).join('')))
    const issues = (await ok(get('issues', q))).data as { id: number; count: number }[]
    expect(issues).toHaveLength(topics.length)
    const ids = issues.map((issue) => issue.id)

    // 16 files, each with two events of every topic: each import upserts all six issues.
    const files = Array.from({ length: 16 }, (_, f) => ({ path: `shop/storm-${f}.log`, body: topics.map((topic) => topicLines(topic, 2, 10 + f * 2)).join('') }))
    let changes = 0
    const statuses = ['in_progress', 'fixed', 'wont_fix', 'open', 'reoccurred'] as const
    const writer = async (offset: number) => {
      for (let i = 0; i < 10; i++) {
        const status = statuses[(i + offset) % statuses.length]!
        const response =
          i % 2 === 0
            ? await post('issue-status', { id: ids[(i + offset) % ids.length], status }, q)
            : await post('bulk-issues', { ids: [...ids].reverse(), action: 'status', status }, q)
        expect(response.status, response.text).toBe(200)
        changes++
      }
    }
    const writers = [writer(0), writer(3)]
    const responses = await Promise.all(files.map((file) => upload(app, file.path, file.body, { env: testEnv as never })))
    for (const response of responses) expect([200, 202], response.text).toContain(response.status)
    await Promise.all(writers)
    await drainWithWorker(recorder.sent, testEnv)
    expect(changes).toBe(20)

    const rollup = await expectIssueRollupExact(app)
    expect(rollup.reduce((sum, row) => sum + row.issues, 0)).toBe(topics.length)
    expect(rollup.reduce((sum, row) => sum + row.occurrences, 0)).toBe(topics.length * (1 + 16 * 2))
    const summary = await ok(get('summary', q))
    expect(summary.total).toMatchObject({ groups_count: topics.length, occurrences: topics.length * 33 })
  })
})
