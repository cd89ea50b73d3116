import { describe, expect, it } from 'vitest'
import { SEVERITIES } from '../../shared/constants.ts'
import { createIssue, createTag, tagsOf } from './helpers/fixtures.ts'
import { DRIVER, call, createTestApp, get, post } from './helpers/api.ts'
import { allowSeverities, appDatabase, bucket, laravelLines, ok, processIncoming, putIncoming, readObject, upload } from './ingestion-helpers.ts'
import access from '../fixtures/logs/reference/access.log?raw'
import horizon from '../fixtures/logs/reference/horizon.log?raw'
import laravel from '../fixtures/logs/reference/laravel.log?raw'
import console_ from '../fixtures/logs/reference/sync-command.log?raw'
import jsonLines from '../fixtures/logs/app.jsonl?raw'

/** The reference's four fixture files at the root of `incoming/<app>/` (no module), as its PHPUnit seed does. */
async function seedReference(app: string) {
  await allowSeverities(app, SEVERITIES)
  await putIncoming(app, 'laravel.log', laravel)
  await putIncoming(app, 'horizon.log', horizon)
  await putIncoming(app, 'access.log', access)
  await putIncoming(app, 'sync-command.log', console_)
  return ok(processIncoming(app))
}

async function orderIssues(app: string) {
  return (await ok(get('issues', { query: { app, q: 'Order' } }))).data as { id: number; count: number; status: string; title: string }[]
}

describe('import-incoming: grouping (reference §2.4–§2.6, §8)', { timeout: 60_000 }, () => {
  it('imports the reference fixtures: 10 events, by_type per parser, "Order 123/456" grouped into one issue of 2', async () => {
    const app = await createTestApp('ingest-ref')
    const result = await seedReference(app)
    expect(result).toEqual({
      files: 4,
      events: 10,
      groups: expect.any(Number),
      skipped: 0,
      processed: 4,
      ingested_severities: [...SEVERITIES],
      by_type: { console: 2, horizon: 1, laravel: 4, nginx_access: 3 },
      errors: [],
      // one entry per file read (issue 10): every entry read is stored here, nothing skipped or unparseable
      file_results: [
        { path: 'access.log', format: 'nginx_access', read: 3, stored: 3, skipped: {}, already_stored: 0, unparseable: 0 },
        { path: 'horizon.log', format: 'horizon', read: 1, stored: 1, skipped: {}, already_stored: 0, unparseable: 0 },
        { path: 'laravel.log', format: 'laravel', read: 4, stored: 4, skipped: {}, already_stored: 0, unparseable: 0 },
        { path: 'sync-command.log', format: 'console', read: 2, stored: 2, skipped: {}, already_stored: 0, unparseable: 0 },
      ],
      retention: { enabled: false, deleted: 0, freed_bytes: 0, remaining: 4, scanned: 4 },
      job: null,
      already_ingested: [],
    })
    expect(Object.keys(result.by_type)).toEqual(['console', 'horizon', 'laravel', 'nginx_access'])
    const orders = await orderIssues(app)
    expect(orders).toHaveLength(1)
    expect(orders[0]!.count).toBe(2)
    expect(result.groups).toBe(9) // every event its own issue except the two orders

    const db = await appDatabase(app)
    const types = await db.rows<{ log_type: string }>(`SELECT DISTINCT log_type FROM ${db.t.groups} ORDER BY log_type`)
    expect(types.map((row) => row.log_type)).toEqual(['console', 'horizon', 'laravel', 'nginx_access'])
    const bySeverity = await ok(get('summary', { query: { app } }))
    expect(bySeverity.severity.find((s: { severity: string }) => s.severity === 'DEBUG').groups_count).toBe(1)
    expect(bySeverity.severity.find((s: { severity: string }) => s.severity === 'INFO').groups_count).toBeGreaterThanOrEqual(2)
    const withStack = await ok(get('issues', { query: { app, has_stack: 'true', limit: 50 } }))
    expect(withStack.data.map((issue: { log_type: string }) => issue.log_type)).toEqual(expect.arrayContaining(['console', 'horizon']))
  })

  it('moves every file out of incoming into the archive and records it as a source', async () => {
    const app = await createTestApp('ingest-archive')
    await seedReference(app)
    expect((await bucket.list({ prefix: `incoming/${app}/` })).objects).toEqual([])
    expect(await readObject(`processed/${app}/laravel.log`)).toBe(laravel)
    const sources = await ok(get('sources', { query: { app } }))
    expect(sources.data.map((file: { path: string }) => file.path).sort()).toEqual(
      ['access.log', 'horizon.log', 'laravel.log', 'sync-command.log'].map((name) => `processed/${app}/${name}`),
    )
    const laravelSource = sources.data.find((file: { channel: string }) => file.channel === 'laravel.log')
    expect(laravelSource).toMatchObject({ size: laravel.length, log_type: 'laravel', occurrence_count: 4, module_id: null })
  })

  it('keeps the latest event as the sample, with first/last seen spanning the events', async () => {
    const app = await createTestApp('ingest-sample')
    await upload(app, 'shop/orders.log', laravelLines(3, { from: 10 }))
    const [issue] = await orderIssues(app)
    const detail = await ok(get('error', { query: { app, id: issue!.id } }))
    expect(detail.data).toMatchObject({
      count: 3,
      first_seen: '2026-02-01 00:00:10',
      last_seen: '2026-02-01 00:00:12',
      title: 'Order 12 failed for user12@shop.test',
      sample_message: 'Order 12 failed for user12@shop.test',
      log_type: 'laravel',
      channel: 'orders.log',
      origin: 'ingested',
      kind: 'error',
      status: 'open',
    })
    expect(detail.occurrences).toHaveLength(3)
    expect(detail.timeline).toEqual([{ day: '2026-02-01', count: 3 }])
  })

  it('creates the module from the first folder (title case name, slug) and reuses an existing one', async () => {
    const app = await createTestApp('ingest-module')
    const existing = await ok(post('modules', { name: 'Billing' }, { query: { app } }), 201)
    await upload(app, 'billing/laravel.log', laravelLines(1))
    await upload(app, 'payment-gateway_v2/laravel.log', laravelLines(1, { from: 5 }))
    const modules = (await ok(get('modules', { query: { app } }))).data
    expect(modules.map((m: { name: string; slug: string; issue_count: number }) => [m.name, m.slug, m.issue_count])).toEqual([
      ['Billing', 'billing', 1],
      ['Payment Gateway V2', 'payment-gateway-v2', 1],
    ])
    expect(modules[0].id).toBe(existing.id)
    const sources = await ok(get('sources', { query: { app } }))
    expect(sources.data.map((file: { path: string }) => file.path).sort()).toEqual([
      `processed/${app}/billing/laravel.log`,
      `processed/${app}/payment-gateway-v2/laravel.log`,
    ])
  })

  it('makes one issue per module: the same message in two modules is two issues', async () => {
    const app = await createTestApp('ingest-two-modules')
    await upload(app, 'billing/laravel.log', laravelLines(2))
    await upload(app, 'shipping/laravel.log', laravelLines(2))
    expect((await orderIssues(app)).map((issue) => issue.count)).toEqual([2, 2])
  })

  it('imports JSON lines files', async () => {
    const app = await createTestApp('ingest-jsonl')
    await allowSeverities(app, SEVERITIES)
    const result = await ok(upload(app, 'edge/app.jsonl', jsonLines))
    expect(result.by_type).toEqual({ json: result.events })
    expect(result.events).toBeGreaterThanOrEqual(5)
  })
})

describe('import-incoming: allow-list (reference §2.1, §3.5)', { timeout: 60_000 }, () => {
  it('ingests WARNING and everything more severe in a fresh application, and says what it skipped', async () => {
    const app = await createTestApp('ingest-defaults')
    const defaults = ['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR', 'WARNING']
    expect(await ok(get('ingestion-settings', { query: { app } }))).toEqual({
      available_severities: [...SEVERITIES],
      ingested_severities: defaults,
      defaults,
    })
    const result = await ok(upload(app, 'laravel.log', laravel))
    expect(result).toMatchObject({ events: 3, by_type: { laravel: 3 }, ingested_severities: defaults })
    expect(result.file_results).toEqual([
      { path: 'laravel.log', format: 'laravel', read: 4, stored: 3, skipped: { DEBUG: 1 }, already_stored: 0, unparseable: 0 },
    ])
    const nginx = await ok(upload(app, 'access.log', access))
    expect(nginx).toMatchObject({ events: 2, by_type: { nginx_access: 2 } }) // the 200 is INFO
    expect(nginx.file_results).toEqual([
      { path: 'access.log', format: 'nginx_access', read: 3, stored: 2, skipped: { INFO: 1 }, already_stored: 0, unparseable: 0 },
    ])
    // The reference's default (ERROR, WARNING) dropped these, the most severe failures of all.
    const severe = ['EMERGENCY', 'ALERT', 'CRITICAL'].map((level, i) => `[2026-01-02 00:00:0${i}] production.${level}: Disk ${level.toLowerCase()}\n`).join('')
    expect(await ok(upload(app, 'severe/laravel.log', severe))).toMatchObject({ events: 3, by_type: { laravel: 3 } })
  })

  it('validates and stores the allow-list in severity order (POST, PUT and PATCH)', async () => {
    const app = await createTestApp('ingest-settings')
    const rules: [unknown, string][] = [
      ['ERROR', 'severities must be an array.'],
      [[], 'Select at least one severity to ingest.'],
      [['error', 'bogus', 'NOPE', 'bogus'], 'Unknown severities: BOGUS, NOPE.'],
    ]
    for (const [severities, message] of rules) {
      const response = await post('ingestion-settings', { severities }, { query: { app } })
      expect(response.status).toBe(422)
      expect(response.body).toEqual({ error: message })
    }
    const missing = await post('ingestion-settings', {}, { query: { app } })
    expect(missing.body).toEqual({ error: 'severities must be an array.' })
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const response = await call(method, 'ingestion-settings', { query: { app }, body: { severities: [' warning', 'Error', 'ERROR', 'debug'] } })
      expect(response.status).toBe(200)
      expect(response.body.ingested_severities).toEqual(['ERROR', 'WARNING', 'DEBUG'])
    }
    expect((await ok(get('ingestion-settings', { query: { app } }))).ingested_severities).toEqual(['ERROR', 'WARNING', 'DEBUG'])
    expect((await call('DELETE', 'ingestion-settings', { query: { app } })).status).toBe(405)
  })

  it('re-reads a file from the start once the allow-list changed (the import version differs)', async () => {
    const app = await createTestApp('ingest-version')
    await ok(upload(app, 'laravel.log', laravel))
    await allowSeverities(app, ['DEBUG', 'ERROR', 'WARNING'])
    const again = await ok(upload(app, 'laravel.log', laravel))
    expect(again).toMatchObject({ skipped: 0, events: 4 })
    const db = await appDatabase(app)
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.occurrences}`)).toBe(4)
    expect((await orderIssues(app))[0]!.count).toBe(2)
  })
})

describe('import-incoming: incremental imports (reference §2.9)', { timeout: 60_000 }, () => {
  it('skips every unchanged file on re-import', async () => {
    const app = await createTestApp('ingest-skip')
    await seedReference(app)
    await putIncoming(app, 'laravel.log', laravel)
    await putIncoming(app, 'horizon.log', horizon)
    await putIncoming(app, 'access.log', access)
    await putIncoming(app, 'sync-command.log', console_)
    const second = await ok(processIncoming(app))
    expect(second).toMatchObject({ files: 4, skipped: 4, events: 0, groups: 0, processed: 4, by_type: { console: 0, horizon: 0, laravel: 0, nginx_access: 0 } })
    expect((await orderIssues(app))[0]!.count).toBe(2)
  })

  it('imports only the tail of an appended file; regression, tag rules and manual issues behave as the reference', async () => {
    const app = await createTestApp('ingest-append')
    await seedReference(app)
    const [order] = await orderIssues(app)
    await ok(post('issue-status', { id: order!.id, status: 'fixed', note: 'deployed' }, { query: { app } }))
    const tag = await createTag(app, { name: 'Orders', match_word: 'Order' })
    const manual = await createIssue(app, { title: 'Keep me', kind: 'task' })

    const appended = `${laravel}[2026-01-01 10:04:00] production.ERROR: Order 789 failed for last@example.test\n`
    const third = await ok(upload(app, 'laravel.log', appended))
    expect(third).toMatchObject({ events: 1, groups: 1, skipped: 0, by_type: { laravel: 1 } })
    const detail = await ok(get('error', { query: { app, id: order!.id } }))
    expect(detail.data).toMatchObject({ count: 3, status: 'reoccurred', last_seen: '2026-01-01 10:04:00' })
    const reoccurred = detail.status_history.filter((row: { to_status: string }) => row.to_status === 'reoccurred')
    expect(reoccurred).toEqual([
      expect.objectContaining({ from_status: 'fixed', to_status: 'reoccurred', note: 'A new occurrence was detected during log import.', actor: null }),
    ])
    expect(detail.data.status_updated_at).not.toBeNull()
    expect(await tagsOf(app, order!.id)).toEqual({ Orders: 'rule' })
    expect(tag.name).toBe('Orders')
    expect((await ok(get('error', { query: { app, id: manual.id } }))).data.origin).toBe('manual')
    expect(await readObject(`processed/${app}/laravel.log`)).toBe(appended)

    // Only `fixed` regresses: a reoccurred issue getting more occurrences records nothing new.
    await ok(upload(app, 'laravel.log', `${appended}[2026-01-01 10:05:00] production.ERROR: Order 790 failed for x@example.test\n`))
    const after = await ok(get('error', { query: { app, id: order!.id } }))
    expect(after.data.count).toBe(4)
    expect(after.status_history.filter((row: { to_status: string }) => row.to_status === 'reoccurred')).toHaveLength(1)
  })

  it('leaves wont_fix and in_progress issues alone when they recur', async () => {
    const app = await createTestApp('ingest-no-regress')
    await upload(app, 'a/laravel.log', laravelLines(1))
    await upload(app, 'b/laravel.log', laravelLines(1))
    const [first, second] = await orderIssues(app)
    await ok(post('issue-status', { id: first!.id, status: 'wont_fix' }, { query: { app } }))
    await ok(post('issue-status', { id: second!.id, status: 'in_progress' }, { query: { app } }))
    await upload(app, 'a/laravel.log', laravelLines(2))
    await upload(app, 'b/laravel.log', laravelLines(2))
    const statuses = (await orderIssues(app)).map((issue) => [issue.id, issue.status])
    expect(statuses).toEqual(expect.arrayContaining([[first!.id, 'wont_fix'], [second!.id, 'in_progress']]))
  })

  it('clears and re-reads a replaced (rotated) file, deleting issues only it held', async () => {
    const app = await createTestApp('ingest-rotate')
    await ok(upload(app, 'app/laravel.log', laravelLines(3)))
    const manual = await createIssue(app, { title: 'Manual survives aggregates' })
    const rotated = '[2026-03-01 08:00:00] production.ERROR: Cache server down\n'
    const result = await ok(upload(app, 'app/laravel.log', rotated))
    expect(result).toMatchObject({ events: 1, skipped: 0 })
    const issues = (await ok(get('issues', { query: { app } }))).data
    expect(issues.map((issue: { title: string }) => issue.title).sort()).toEqual(['Cache server down', 'Manual survives aggregates'])
    expect(issues.find((issue: { id: number }) => issue.id === manual.id)).toBeDefined()
    const db = await appDatabase(app)
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.occurrences}`)).toBe(1)
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.groupDays}`)).toBe(1)
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.groupSources}`)).toBe(1)
    expect((await ok(get('sources', { query: { app } }))).data[0]).toMatchObject({ size: rotated.length, occurrence_count: 1 })
  })

  it('keeps group_days, group_sources and file counts equal to what the occurrences say', async () => {
    const app = await createTestApp('ingest-rollups')
    await upload(app, 'x/a.log', laravelLines(5, { day: '2026-02-01' }) + laravelLines(3, { day: '2026-02-02' }))
    await upload(app, 'x/b.log', laravelLines(4, { day: '2026-02-02' }))
    const db = await appDatabase(app)
    const { t } = db
    const days = await db.rows(`SELECT group_id, day, count FROM ${t.groupDays} ORDER BY group_id, day`)
    const expected = await db.rows(`SELECT group_id, occurred_day AS day, COUNT(*) AS count FROM ${t.occurrences} GROUP BY group_id, occurred_day ORDER BY group_id, occurred_day`)
    expect(days).toEqual(expected)
    const pairs = await db.rows(`SELECT group_id, source_file_id FROM ${t.groupSources} ORDER BY group_id, source_file_id`)
    expect(pairs).toEqual(await db.rows(`SELECT DISTINCT group_id, source_file_id FROM ${t.occurrences} ORDER BY group_id, source_file_id`))
    expect(await db.rows(`SELECT count FROM ${t.groups}`)).toEqual([{ count: 12 }])
    const counts = (await ok(get('sources', { query: { app } }))).data.map((file: { channel: string; occurrence_count: number }) => [file.channel, file.occurrence_count])
    expect(counts.sort()).toEqual([['a.log', 8], ['b.log', 4]])
  })
})

describe('import-incoming: uploads and incoming objects (docs/api-ingestion.md)', { timeout: 60_000 }, () => {
  it('rejects unsafe or non-log upload paths and empty bodies with 422, oversized ones with 413', async () => {
    const app = await createTestApp('ingest-upload-rules')
    for (const file of ['../x.log', '/abs.log', 'a/../b.log', 'a//b.log', '.hidden.log', 'a/b/c/d/e.log', 'a b.log', 'x\\y.log']) {
      const response = await upload(app, file, 'x')
      expect(response.status, file).toBe(422)
      expect(response.body.error).toMatch(/^file must be a relative path/)
    }
    for (const file of ['notes.txt', 'laravel.log.old', 'archive.log.gz']) {
      expect((await upload(app, file, 'x')).body).toEqual({ error: 'file must name a log file ending in .log, .log.N, .jsonl or .ndjson.' })
    }
    expect(await ok(upload(app, 'rotated.log.1', laravelLines(1)))).toMatchObject({ events: 1 })
    const empty = await upload(app, 'empty.log', '')
    expect(empty.status).toBe(422)
    expect(empty.body.error).toBe('Send the log file as the request body (e.g. curl --data-binary @laravel.log).')
    const huge = await call('POST', 'import-incoming', { query: { app, file: 'huge.log' }, body: 'x', headers: { 'content-length': String(200 * 1024 * 1024) } })
    expect(huge.status).toBe(413)
    expect(huge.body).toEqual({ error: 'Request body is too large (limit 100 MiB).' })
  })

  it('reports objects that are not log files and leaves them in incoming', async () => {
    const app = await createTestApp('ingest-non-log')
    await putIncoming(app, 'billing/readme.txt', 'not a log')
    await putIncoming(app, 'billing/laravel.log', laravelLines(1))
    const result = await ok(processIncoming(app))
    expect(result).toMatchObject({ files: 1, events: 1, processed: 1 })
    expect(result.errors).toEqual(['billing/readme.txt: not a log file (.log, .log.N, .jsonl or .ndjson); left in incoming.'])
    expect(await readObject(`incoming/${app}/billing/readme.txt`)).toBe('not a log')
  })

  it('archives under a suffixed name when the plain one holds another file', async () => {
    const app = await createTestApp('ingest-collision')
    await bucket.put(`processed/${app}/billing/laravel.log`, 'someone else')
    await ok(upload(app, 'billing/laravel.log', laravelLines(1)))
    const [source] = (await ok(get('sources', { query: { app } }))).data
    expect(source.path).toMatch(new RegExp(`^processed/${app}/billing/laravel-\\d{8}-\\d{6}-[0-9a-f]{6}\\.log$`))
    expect(source.channel).toBe('laravel.log')
    expect(await readObject(`processed/${app}/billing/laravel.log`)).toBe('someone else')
    // The same upload again is still the same file (its identity is the incoming path).
    expect(await ok(upload(app, 'billing/laravel.log', laravelLines(1)))).toMatchObject({ skipped: 1, events: 0 })
  })

  it('refuses "Process logs" while another import holds the lock, and takes over an expired lock', async () => {
    const app = await createTestApp('ingest-lock')
    const db = await appDatabase(app)
    const key = db.db.dialect.quote('key')
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ')
    await putIncoming(app, 'laravel.log', laravelLines(1))
    await db.db.execute({ sql: `INSERT INTO ${db.t.settings} (${key}, value, updated_at) VALUES ('import.lock', 'someone', ?)`, args: [now] })
    const busy = await processIncoming(app)
    expect(busy.status).toBe(400)
    expect(busy.body).toEqual({ error: 'An incoming import is already running for this application.' })
    expect(await readObject(`incoming/${app}/laravel.log`)).toBe(laravelLines(1)) // untouched
    await db.db.execute({ sql: `UPDATE ${db.t.settings} SET updated_at = '2000-01-01 00:00:00' WHERE ${key} = 'import.lock'` })
    expect(await ok(processIncoming(app))).toMatchObject({ events: 1 })
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.settings} WHERE ${key} = 'import.lock'`)).toBe(0)
  })

  it('answers other methods with 405', async () => {
    const response = await call('PUT', 'import-incoming')
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST')
  })
})

describe('persistence round trips (design.md §5)', { timeout: 60_000 }, () => {
  it('costs at most 4 round trips per 1,000-event batch (10 on PlanetScale), whatever the batch count', async () => {
    const app = await createTestApp('ingest-trips')
    // The reference's batch size: every extra 1,000 events is one more batch, one more round trip.
    const thousand = { SERVICE_CONFIG: JSON.stringify({ ingestion: { import_batch_events: 1000 } }) }
    const one = await upload(app, 'a/one.log', laravelLines(1000), { env: thousand })
    const three = await upload(app, 'b/three.log', laravelLines(3000), { env: thousand })
    expect(one.body.events).toBe(1000)
    expect(three.body.events).toBe(3000)
    const perBatch = (three.roundTrips - one.roundTrips) / 2
    expect(perBatch).toBeLessThanOrEqual(DRIVER === 'planetscale' ? 10 : 4)
    // PlanetScale (a request per statement, plus BEGIN and COMMIT): 10 for a run's first batch, 9 for the
    // middle one (the run has stored its issues: no insert), 10 for the last (the samples' upsert).
    expect(perBatch).toBe(DRIVER === 'planetscale' ? (10 + 9 + 10 - 10) / 2 : 1)
    // The default batch (8,000 events, its rows in several JSON parameters): 9,000 events are two batches,
    // one more than 1,000.
    const nine = await upload(app, 'c/nine.log', laravelLines(9000))
    expect(nine.body.events).toBe(9000)
    expect(nine.roundTrips - one.roundTrips).toBe(DRIVER === 'planetscale' ? 10 + 10 - 10 : 1)
  })
})
