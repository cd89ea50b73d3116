import { describe, expect, it } from 'vitest'
import { DriverError } from '../../drivers/driver-error.ts'
import type { Statement } from '../../drivers/driver.ts'
import { importIncoming } from '../../worker/intake/import-incoming.ts'
import { openScope } from '../../worker/apps/open-scope.ts'
import { call, createTestApp, get, post } from './helpers/api.ts'
import { drainWithDeps, hookedDeps, mentions, recordingQueue, topicLines } from './import-harness.ts'
import { appDatabase, bucket, ok, processIncoming, putIncoming } from './ingestion-helpers.ts'

/**
 * Issue 10 defect 3: one bad file never blocks an application. A file whose import keeps throwing is set aside
 * after `ingestion.max_file_attempts` (3) attempts, listed with its error, no longer retried, and every other
 * file still imports; `{"retry": id}` (or a re-upload) tries it again. The fault is injected in front of the
 * parity leg's real driver: every statement carrying the marker text (the bad file's events) fails the way a
 * database refusing its content does.
 */
const POISON = 'poisoned payload'

function poisoned(statements: readonly Statement[]): void {
  if (mentions(statements, POISON)) throw new DriverError('unknown', 'd1', 'invalid byte sequence (injected by the test)')
}

async function topicCounts(app: string): Promise<Record<string, number>> {
  const db = await appDatabase(app)
  const rows = await db.rows<{ title: string; count: number }>(`SELECT title, count FROM ${db.t.groups} ORDER BY title`)
  return Object.fromEntries(rows.map((row) => [row.title, Number(row.count)]))
}

describe('import-incoming: a file that keeps failing is set aside (issue 10 defect 3)', { timeout: 60_000 }, () => {
  it('imports the good file, sets the bad one aside after 3 attempts with its error, stops retrying it, and retries it on request', async () => {
    const app = await createTestApp('fail-aside')
    const recorder = recordingQueue()
    const deps = hookedDeps({ IMPORT_QUEUE: recorder.queue }, poisoned)
    const scope = await openScope(deps, app)
    await putIncoming(app, 'billing/bad.log', `[2026-03-01 10:00:00] production.ERROR: ${POISON}\n`)
    await putIncoming(app, 'billing/good.log', topicLines('good', 3))

    const first = await importIncoming(deps, scope, null)
    expect(first).toMatchObject({ events: 3, processed: 2, errors: ['billing/bad.log: The database refused the events of this file; the details are in the server log.'] })
    expect(first.job).toMatchObject({ status: 'queued' }) // the bad file is still pending: a job tries again
    expect(await drainWithDeps(recorder.sent, deps)).toBe(2) // attempts 2 and 3, then nothing is pending

    const status = await ok(get('import-incoming', { query: { app } }))
    const db = await appDatabase(app)
    const badId = await db.value(`SELECT s.id FROM ${db.t.sourceFiles} s WHERE s.channel = 'bad.log'`)
    expect(status.failed).toEqual([
      {
        id: expect.any(Number),
        path: 'billing/bad.log',
        source_id: badId,
        error: 'The database refused the events of this file; the details are in the server log.',
        attempts: 3,
        failed_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      },
    ])
    expect(status.pending).toEqual({ files: 0, bytes: 0 })
    expect(status.data[0]).toMatchObject({ status: 'success', result: { events: 0, errors: [expect.stringMatching(/^billing\/bad\.log: /), expect.stringMatching(/^billing\/bad\.log: /)] } })
    expect(await topicCounts(app)).toEqual({ 'Checkout failed in good service': 3 })

    // Set aside: later imports neither try it nor report it, and other files keep importing.
    await putIncoming(app, 'billing/next.log', topicLines('next', 2))
    const later = await importIncoming(deps, scope, null)
    expect(later).toMatchObject({ events: 2, errors: [], job: null })
    expect(recorder.sent).toEqual([])
    expect((await ok(get('import-incoming', { query: { app } }))).failed[0]).toMatchObject({ attempts: 3 })

    // Retried once the database accepts it (here: without the fault).
    const retried = await ok(post('import-incoming', { retry: status.failed[0].id }, { query: { app } }))
    expect(retried).toMatchObject({ events: 1, errors: [], job: null })
    expect((await ok(get('import-incoming', { query: { app } }))).failed).toEqual([])
    expect(await topicCounts(app)).toMatchObject({ 'Checkout failed in good service': 3, 'Checkout failed in next service': 2 })
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.occurrences}`)).toBe(6)
  })

  it('honours ingestion.max_file_attempts and gives a re-uploaded file fresh attempts', async () => {
    const app = await createTestApp('fail-config')
    const recorder = recordingQueue()
    const config = JSON.stringify({ ingestion: { max_file_attempts: 1 } })
    const deps = hookedDeps({ IMPORT_QUEUE: recorder.queue, SERVICE_CONFIG: config }, poisoned)
    const scope = await openScope(deps, app)
    const bad = `[2026-03-01 10:00:00] production.ERROR: ${POISON}\n`
    const first = await importIncoming(deps, scope, { path: 'bad.log', body: new TextEncoder().encode(bad), length: bad.length })
    expect(first).toMatchObject({ events: 0, job: null, errors: ['bad.log: The database refused the events of this file; the details are in the server log.'] })
    expect((await ok(get('import-incoming', { query: { app } }))).failed).toMatchObject([{ path: 'bad.log', attempts: 1 }])
    // The same bytes uploaded again: fresh attempts (and here the fault is gone).
    const again = await ok(call('POST', 'import-incoming', { query: { app, file: 'bad.log' }, body: bad, env: { SERVICE_CONFIG: config } }))
    expect(again).toMatchObject({ events: 1, errors: [] })
    expect((await ok(get('import-incoming', { query: { app } }))).failed).toEqual([])
  })

  it('sets aside an object that cannot be archived, and validates retry', async () => {
    const app = await createTestApp('fail-object')
    await bucket.put(`incoming/${app}/billing//odd.log`, topicLines('odd', 1))
    await putIncoming(app, 'fine.log', topicLines('fine', 1))
    const message = 'billing//odd.log: The path is not safe to import; the file was left in incoming.'
    expect(await ok(processIncoming(app))).toMatchObject({ events: 1, errors: [message] })
    expect((await ok(processIncoming(app))).errors).toEqual([message])
    expect((await ok(processIncoming(app))).errors).toEqual([message])
    expect(await ok(processIncoming(app))).toMatchObject({ errors: [] }) // set aside after the third
    const [failed] = (await ok(get('import-incoming', { query: { app } }))).failed
    expect(failed).toMatchObject({ path: 'billing//odd.log', source_id: null, attempts: 3, error: 'The path is not safe to import; the file was left in incoming.' })

    for (const retry of ['1', 0, -2, 1.5, null]) {
      const response = await post('import-incoming', { retry }, { query: { app } })
      expect(response.status, JSON.stringify(retry)).toBe(422)
      expect(response.body).toEqual({ error: 'retry must be the id of a set-aside file (see failed in GET ?api=import-incoming).' })
    }
    const unknown = await post('import-incoming', { retry: failed.id + 1000 }, { query: { app } })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: `No set-aside file has id ${failed.id + 1000}.` })
    // Retried, it fails again (the path is still unsafe) and counts from 1.
    expect(await ok(post('import-incoming', { retry: failed.id }, { query: { app } }))).toMatchObject({ errors: [message] })
    expect((await ok(get('import-incoming', { query: { app } }))).failed).toEqual([])
  })

  it('lets a database outage end the run without counting it against any file', async () => {
    const app = await createTestApp('fail-outage')
    let down = true
    const deps = hookedDeps({ IMPORT_QUEUE: recordingQueue().queue }, (statements) => {
      if (down && mentions(statements, 'outage')) throw new DriverError('connection', 'd1', 'connection refused (injected by the test)')
    })
    const scope = await openScope(deps, app)
    await putIncoming(app, 'a.log', topicLines('outage', 2))
    await expect(importIncoming(deps, scope, null)).rejects.toThrow(DriverError)
    const db = await appDatabase(app)
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.importFailures}`)).toBe(0)
    down = false
    expect(await importIncoming(deps, scope, null)).toMatchObject({ events: 2, errors: [] })
  })
})
