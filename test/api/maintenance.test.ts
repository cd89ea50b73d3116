import { createExecutionContext, env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { SEVERITIES } from '../../shared/constants.ts'
import { createApp, createDeps } from '../../worker/app.ts'
import { cloudflareRuntime } from '../../worker/platform/cloudflare/cloudflare-runtime.ts'
import type { CloudflareEnv as Env } from '../../worker/platform/cloudflare/cloudflare-env.ts'
import { openScope } from '../../worker/apps/open-scope.ts'
import { maintainApplication } from '../../worker/maintenance/maintain-application.ts'
import { createIssue } from './helpers/fixtures.ts'
import { call, createTestApp, get, post } from './helpers/api.ts'
import { allowSeverities, appDatabase, bucket, daysAgo, laravelLines, ok, readObject, upload } from './ingestion-helpers.ts'
import laravel from '../fixtures/logs/reference/laravel.log?raw'

const DELETION = {
  scope: 'Choose exactly one deletion scope: date or source_id.',
  date: 'Deletion date must use YYYY-MM-DD.',
}

async function issuesByTitle(app: string): Promise<Record<string, { id: number; count: number; first_seen: string; last_seen: string; origin: string }>> {
  const { data } = await ok(get('issues', { query: { app, limit: 200 } }))
  return Object.fromEntries(data.map((issue: { title: string }) => [issue.title, issue]))
}

/** group_days and group_sources must always say what the occurrences say. */
async function expectRollupsInStep(app: string) {
  const db = await appDatabase(app)
  const { t } = db
  expect(await db.rows(`SELECT group_id, day, count FROM ${t.groupDays} ORDER BY group_id, day`)).toEqual(
    await db.rows(`SELECT group_id, occurred_day AS day, COUNT(*) AS count FROM ${t.occurrences} GROUP BY group_id, occurred_day ORDER BY group_id, occurred_day`),
  )
  expect(await db.rows(`SELECT group_id, source_file_id FROM ${t.groupSources} ORDER BY group_id, source_file_id`)).toEqual(
    await db.rows(`SELECT DISTINCT group_id, source_file_id FROM ${t.occurrences} ORDER BY group_id, source_file_id`),
  )
  expect(await db.rows(`SELECT id, count FROM ${t.groups} WHERE origin = 'ingested' ORDER BY id`)).toEqual(
    await db.rows(`SELECT group_id AS id, COUNT(*) AS count FROM ${t.occurrences} GROUP BY group_id ORDER BY group_id`),
  )
  // Every occurrence is folded in after an import; a deletion leaves a day it emptied at 0.
  expect(await db.rows(`SELECT day, severity, count FROM ${t.dailyCounts} WHERE count <> 0 ORDER BY day, severity`)).toEqual(
    await db.rows(`SELECT occurred_day AS day, severity, COUNT(*) AS count FROM ${t.occurrences} GROUP BY occurred_day, severity ORDER BY occurred_day, severity`),
  )
}

/** Two days of "Order N failed" in one file, plus an issue that only happens on the first day. */
const TWO_DAYS =
  laravelLines(3, { day: '2026-02-01' }) +
  '[2026-02-01 12:00:00] production.ERROR: Only on the first day\n' +
  laravelLines(2, { day: '2026-02-02', from: 100 })

describe('log-deletion-preview and delete-logs (reference §3.6)', { timeout: 60_000 }, () => {
  it('needs exactly one valid scope', async () => {
    const app = await createTestApp('delete-scope')
    const cases: [Record<string, string | number>, string][] = [
      [{}, DELETION.scope],
      [{ date: '2026-02-01', source_id: 1 }, DELETION.scope],
      [{ date: '2026-02-30' }, DELETION.date],
      [{ date: 'yesterday' }, DELETION.date],
      [{ source_id: 'abc' }, 'source_id must be a positive integer.'],
      [{ source_id: 999 }, 'Source 999 does not exist.'],
    ]
    for (const [query, message] of cases) {
      const response = await get('log-deletion-preview', { query: { app, ...query } })
      expect(response.status, JSON.stringify(query)).toBe(422)
      expect(response.body).toEqual({ error: message })
    }
    expect((await call('POST', 'log-deletion-preview', { query: { app } })).status).toBe(405)
    expect((await call('GET', 'delete-logs', { query: { app } })).status).toBe(405)
  })

  it('previews a day and a source', async () => {
    const app = await createTestApp('delete-preview')
    await upload(app, 'shop/a.log', TWO_DAYS)
    await upload(app, 'shop/b.log', laravelLines(2, { day: '2026-02-01', from: 500 }))
    expect(await ok(get('log-deletion-preview', { query: { app, date: '2026-02-01' } }))).toEqual({
      scope: { type: 'date', date: '2026-02-01' },
      occurrences: 6,
      issue_groups: 2,
      sources: 2,
      raw_files_preserved: true,
      checkpoints_preserved: true,
    })
    const [source] = (await ok(get('sources', { query: { app } }))).data.filter((file: { channel: string }) => file.channel === 'a.log')
    expect(await ok(get('log-deletion-preview', { query: { app, source_id: source.id } }))).toEqual({
      scope: {
        type: 'source',
        source_id: source.id,
        source: { id: source.id, path: source.path, log_type: 'laravel', channel: 'a.log', size: source.size, imported_at: source.imported_at },
      },
      occurrences: 6,
      issue_groups: 2,
      sources: 1,
      raw_files_preserved: true,
      checkpoints_preserved: true,
    })
  })

  it('refuses anything but the exact confirmation, deleting nothing', async () => {
    const app = await createTestApp('delete-confirm')
    await upload(app, 'shop/a.log', TWO_DAYS)
    for (const confirmation of [undefined, 'delete logs', 'DELETE LOGS ', 'DELETE']) {
      const response = await post('delete-logs', { date: '2026-02-01', confirmation }, { query: { app } })
      expect(response.status).toBe(422)
      expect(response.body).toEqual({ error: 'Type DELETE LOGS exactly to confirm scoped log deletion.' })
    }
    expect((await issuesByTitle(app))['Only on the first day']).toBeDefined()
  })

  it('deletes a day: issues recomputed, emptied ingested ones deleted, manual issues, raw files and checkpoints kept', async () => {
    const app = await createTestApp('delete-day')
    await upload(app, 'shop/a.log', TWO_DAYS)
    const manual = await createIssue(app, { title: 'Manual issue stays' })
    // The issue the deletion empties carries a tag and a status change: they go with it on every engine.
    const emptied = (await issuesByTitle(app))['Only on the first day']!
    const tag = await ok(post('tags', { name: 'first-day' }, { query: { app } }), 201)
    await ok(post('issue-tags', { group_id: emptied.id, tag_id: tag.id }, { query: { app } }))
    await ok(post('issue-status', { id: emptied.id, status: 'fixed' }, { query: { app } }))
    const db = await appDatabase(app)
    for (const table of ['groupTags', 'history'] as const) expect(await db.value(`SELECT COUNT(*) FROM ${db.t[table]} WHERE group_id = ?`, [emptied.id]), table).toBe(1)
    const result = await ok(post('delete-logs', { date: '2026-02-01', confirmation: 'DELETE LOGS' }, { query: { app } }))
    expect(result).toEqual({
      deleted: { occurrences: 4, empty_issue_groups: 1 },
      preview: expect.objectContaining({ scope: { type: 'date', date: '2026-02-01' }, occurrences: 4, issue_groups: 2, sources: 1 }),
      raw_files_preserved: true,
      checkpoints_preserved: true,
    })
    const issues = await issuesByTitle(app)
    expect(Object.keys(issues).sort()).toEqual(['Manual issue stays', 'Order 101 failed for user101@shop.test'])
    expect(issues['Order 101 failed for user101@shop.test']).toMatchObject({ count: 2, first_seen: '2026-02-02 00:01:40', last_seen: '2026-02-02 00:01:41' })
    expect(issues['Manual issue stays']!.id).toBe(manual.id)
    for (const table of ['groupTags', 'history', 'issueValues'] as const) expect(await db.value(`SELECT COUNT(*) FROM ${db.t[table]} WHERE group_id = ?`, [emptied.id]), table).toBe(0)
    expect((await ok(get('tags', { query: { app } }))).data.find((row: { id: number }) => row.id === tag.id).issue_count).toBe(0)
    await expectRollupsInStep(app)
    expect((await ok(get('summary', { query: { app } }))).trend).toEqual([{ day: '2026-02-02', count: 2 }])
    expect((await ok(get('sources', { query: { app } }))).data[0].occurrence_count).toBe(2)
    expect(await readObject(`processed/${app}/shop/a.log`)).toBe(TWO_DAYS)
    // The checkpoint is kept: the same file again is unchanged, and nothing comes back.
    expect(await ok(upload(app, 'shop/a.log', TWO_DAYS))).toMatchObject({ skipped: 1, events: 0 })
  })

  it('waits for no import: a held import lock is the usual 400', async () => {
    const app = await createTestApp('delete-locked')
    await upload(app, 'shop/a.log', TWO_DAYS)
    const db = await appDatabase(app)
    const key = db.db.dialect.quote('key')
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ')
    await db.db.execute({ sql: `INSERT INTO ${db.t.settings} (${key}, value, updated_at) VALUES ('import.lock', 'import', ?)`, args: [now] })
    const response = await post('delete-logs', { date: '2026-02-01', confirmation: 'DELETE LOGS' }, { query: { app } })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ error: 'An incoming import is already running for this application.' })
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.occurrences}`)).toBe(6)
  })

  it('deletes one source file', async () => {
    const app = await createTestApp('delete-source')
    await upload(app, 'shop/a.log', TWO_DAYS)
    await upload(app, 'shop/b.log', laravelLines(2, { day: '2026-02-03', from: 500 }))
    const sources = (await ok(get('sources', { query: { app } }))).data
    const a = sources.find((file: { channel: string }) => file.channel === 'a.log')
    const result = await ok(post('delete-logs', { source_id: a.id, confirmation: 'DELETE LOGS' }, { query: { app } }))
    expect(result.deleted).toEqual({ occurrences: 6, empty_issue_groups: 1 })
    expect(Object.values(await issuesByTitle(app)).map((issue) => issue.count)).toEqual([2])
    await expectRollupsInStep(app)
    const after = (await ok(get('sources', { query: { app } }))).data
    expect(after.map((file: { channel: string; occurrence_count: number }) => [file.channel, file.occurrence_count]).sort()).toEqual([
      ['a.log', 0],
      ['b.log', 2],
    ])
  })
})

describe('reindex (reference §3.6)', { timeout: 60_000 }, () => {
  it('re-reads every archived file under the current allow-list', async () => {
    const app = await createTestApp('reindex')
    await ok(upload(app, 'shop/laravel.log', laravel)) // ERROR and WARNING: 3 events
    const manual = await createIssue(app, { title: 'Manual through reindex' })
    await allowSeverities(app, SEVERITIES)
    const result = await ok(post('reindex', undefined, { query: { app } }))
    expect(result).toMatchObject({ files: 1, events: 4, skipped: 0, processed: 0, by_type: { laravel: 4 }, errors: [], job: null })
    const issues = await issuesByTitle(app)
    expect(issues['Order 123 failed for user@example.test']?.count ?? issues['Order 456 failed for other@example.test']?.count).toBe(2)
    expect(Object.keys(issues)).toContain('Diagnostic event retained for investigation')
    expect(issues['Manual through reindex']!.id).toBe(manual.id)
    await expectRollupsInStep(app)
    // Back to the defaults: a reindex drops what the allow-list no longer admits.
    await allowSeverities(app, ['ERROR', 'WARNING'])
    expect(await ok(post('reindex', undefined, { query: { app } }))).toMatchObject({ events: 3 })
    expect(Object.keys(await issuesByTitle(app))).not.toContain('Diagnostic event retained for investigation')
    await expectRollupsInStep(app)
  })

  it('leaves files whose archive is gone as they are', async () => {
    const app = await createTestApp('reindex-gone')
    await upload(app, 'shop/laravel.log', laravel)
    await bucket.delete(`processed/${app}/shop/laravel.log`)
    expect(await ok(post('reindex', undefined, { query: { app } }))).toMatchObject({ files: 0, events: 0 })
    expect(Object.values(await issuesByTitle(app)).reduce((sum, issue) => sum + issue.count, 0)).toBe(3)
    expect((await call('GET', 'reindex', { query: { app } })).status).toBe(405)
  })
})

describe('processed-retention (reference §3.6)', { timeout: 60_000 }, () => {
  it('reports the policy and the size of the archive', async () => {
    const app = await createTestApp('retention-status')
    await upload(app, 'a/one.log', laravelLines(2))
    await upload(app, 'b/two.log', laravelLines(3))
    const sizes = laravelLines(2).length + laravelLines(3).length
    expect(await ok(get('processed-retention', { query: { app } }))).toEqual({
      policy: { processed_max_age_days: 0, processed_max_files: 0 },
      archived_files: 2,
      archived_bytes: sizes,
    })
    const disabled = await ok(post('processed-retention', undefined, { query: { app } }))
    expect(disabled).toEqual({
      status: { policy: { processed_max_age_days: 0, processed_max_files: 0 }, archived_files: 2, archived_bytes: sizes },
      pruned: { enabled: false, deleted: 0, freed_bytes: 0, remaining: 2, scanned: 2 },
    })
  })

  it('prunes newest-first by count on demand and after every import; source reads then say unavailable', async () => {
    const app = await createTestApp('retention-prune')
    const keepOne = { SERVICE_CONFIG: JSON.stringify({ retention: { processed_max_files: 1 } }) }
    await upload(app, 'a/one.log', laravelLines(2))
    await new Promise((resolve) => setTimeout(resolve, 5))
    await upload(app, 'a/two.log', laravelLines(2, { from: 10 }))
    await new Promise((resolve) => setTimeout(resolve, 5))
    const third = await ok(upload(app, 'a/three.log', laravelLines(2, { from: 20 }), { env: keepOne }))
    expect(third.retention).toEqual({ enabled: true, deleted: 2, freed_bytes: expect.any(Number), remaining: 1, scanned: 3 })
    expect(await readObject(`processed/${app}/a/three.log`)).not.toBeNull()
    expect(await readObject(`processed/${app}/a/one.log`)).toBeNull()
    const again = await ok(post('processed-retention', undefined, { query: { app }, env: keepOne }))
    expect(again.pruned).toEqual({ enabled: true, deleted: 0, freed_bytes: 0, remaining: 1, scanned: 1 })
    const [issue] = (await ok(get('issues', { query: { app } }))).data // one issue: "Order N failed" in all three files
    const occurrences = (await ok(get('error', { query: { app, id: issue.id } }))).occurrences
    const pruned = occurrences.find((o: { path: string }) => o.path.endsWith('/one.log'))
    const kept = occurrences.find((o: { path: string }) => o.path.endsWith('/three.log'))
    expect((await get('source', { query: { app, occurrence: pruned.id } })).body).toEqual({ error: 'The archived source file is unavailable.' })
    expect((await get('source', { query: { app, occurrence: kept.id } })).status).toBe(200)
  })
})

describe('occurrence retention (reference §3.6)', { timeout: 60_000 }, () => {
  it('deletes occurrences older than the age limit after an import, and issues left empty', async () => {
    const app = await createTestApp('retention-age')
    const text =
      laravelLines(2, { day: daysAgo(200) }) +
      `[${daysAgo(200)} 05:00:00] production.ERROR: Ancient only\n` +
      laravelLines(1, { day: daysAgo(1), from: 50 })
    await createIssue(app, { title: 'Manual never pruned' })
    const config = { SERVICE_CONFIG: JSON.stringify({ retention: { occurrences_max_age_days: 90 } }) }
    await ok(upload(app, 'x/laravel.log', text, { env: config }))
    const issues = await issuesByTitle(app)
    expect(Object.keys(issues).sort()).toEqual(['Manual never pruned', 'Order 50 failed for user50@shop.test'])
    expect(issues['Order 50 failed for user50@shop.test']!.count).toBe(1)
    await expectRollupsInStep(app)
  })

  it('keeps only the newest N occurrences per issue', async () => {
    const app = await createTestApp('retention-count')
    const config = { SERVICE_CONFIG: JSON.stringify({ retention: { max_occurrences_per_group: 2 } }) }
    await ok(upload(app, 'x/laravel.log', laravelLines(5), { env: config }))
    const [issue] = Object.values(await issuesByTitle(app))
    expect(issue).toMatchObject({ count: 2, first_seen: '2026-02-01 00:00:03', last_seen: '2026-02-01 00:00:04' })
    await expectRollupsInStep(app)
  })

  it('runs at most once per 900 s, and from the cron trigger', async () => {
    const app = await createTestApp('retention-throttle')
    const config = { SERVICE_CONFIG: JSON.stringify({ retention: { occurrences_max_age_days: 90 } }) }
    await ok(upload(app, 'x/first.log', laravelLines(1, { day: daysAgo(1) }), { env: config }))
    await ok(upload(app, 'x/old.log', laravelLines(3, { day: daysAgo(300), from: 10 }), { env: config }))
    const db = await appDatabase(app)
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.occurrences}`)).toBe(4) // throttled: not pruned yet
    const key = db.db.dialect.quote('key')
    await db.db.execute({ sql: `UPDATE ${db.t.settings} SET value = '0' WHERE ${key} = 'retention.occurrences_last_run'` })
    const deps = createDeps({ ...env, ...config } as unknown as Env, createExecutionContext(), createApp({ runtime: cloudflareRuntime }))
    await maintainApplication(deps, await openScope(deps, app))
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.occurrences}`)).toBe(1)
    await expectRollupsInStep(app)
  })
})
