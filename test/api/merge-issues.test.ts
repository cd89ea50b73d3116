import { createExecutionContext, env as baseEnv, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import worker from '../../worker/index.ts'
import type { CloudflareEnv as Env } from '../../worker/platform/cloudflare/cloudflare-env.ts'
import { ORIGIN, call, createTestApp, get, post, type ApiCall } from './helpers/api.ts'
import { createIssue, expectRoundTrips, tagsOf } from './helpers/fixtures.ts'
import { appDatabase, upload, type AppDatabase } from './ingestion-helpers.ts'
import { OTHER_VALUE, VALUES_PER_NAME } from '../../worker/digest/issue-value-rollup.ts'

/**
 * `POST ?api=merge-issues` (issue 17 item 8): validation (422/404, nothing written), everything keyed by issue
 * id moved in one batch (occurrences, history, tags, per-day counts, sources, releases, tracker link), daily
 * totals unchanged, and the merged fingerprints grouping into the target afterwards — for HTTP ingest and for
 * file imports and Sentry ingest, through a chain of merges and a reindex.
 */
const SECRET = { SERVICE_SECRET: 'test-secret-for-merge-issues' }

describe('POST ?api=merge-issues', () => {
  let app: string
  let key: string
  let db: AppDatabase
  const env: ApiCall['env'] = SECRET
  const ingest = (events: unknown[]) => call('POST', 'ingest', { query: { app }, env, body: { events }, headers: { 'X-Loupe-Ingest-Key': key } })
  const merge = (body: unknown) => post('merge-issues', body, { query: { app }, env })
  const issueByTitle = async (title: string) => {
    const list = await get('issues', { query: { app, q: title, limit: 200 }, env })
    return list.body.data.filter((issue: { title: string }) => issue.title === title)
  }
  const detail = (id: number) => get('error', { query: { app, id, limit: 500 }, env })
  const issueCount = async () => (await get('issues', { query: { app }, env })).body.meta.total as number
  const dailyTotal = () => db.value(`SELECT COALESCE(SUM(count), 0) FROM ${db.t.dailyCounts}`)

  beforeAll(async () => {
    app = await createTestApp('merge')
    for (const id of ['http_ingest', 'releases']) expect((await post('plugins', { id, enabled: true }, { query: { app }, env })).status).toBe(200)
    key = (await get('ingest-settings', { query: { app }, env })).body.key
    db = await appDatabase(app)
  })

  it('refuses bad input with 422 and unknown issues with 404, writing nothing', async () => {
    expect((await ingest([{ message: 'Valid one' }, { message: 'Valid two' }])).status).toBe(202)
    const [one] = await issueByTitle('Valid one')
    const [two] = await issueByTitle('Valid two')
    const cases: [unknown, number, string][] = [
      [{ ids: [two.id] }, 422, 'target must be a positive integer issue id.'],
      [{ target: 'x', ids: [two.id] }, 422, 'target must be a positive integer issue id.'],
      [{ target: 0, ids: [two.id] }, 422, 'target must be a positive integer issue id.'],
      [{ target: one.id }, 422, 'ids must be an array.'],
      [{ target: one.id, ids: String(two.id) }, 422, 'ids must be an array.'],
      [{ target: one.id, ids: [] }, 422, 'Select between 1 and 200 issues to merge into the target.'],
      [{ target: one.id, ids: Array.from({ length: 201 }, (_, i) => 100_000 + i) }, 422, 'Select between 1 and 200 issues to merge into the target.'],
      [{ target: one.id, ids: [two.id, 'abc'] }, 422, 'ids must contain positive integer issue ids.'],
      [{ target: one.id, ids: [two.id, -3] }, 422, 'ids must contain positive integer issue ids.'],
      [{ target: one.id, ids: [two.id, one.id] }, 422, 'The target issue cannot be merged into itself.'],
      [{ target: one.id, ids: [two.id, 999_999] }, 404, 'Issue 999999 does not exist in this application.'],
      [{ target: 999_998, ids: [two.id] }, 404, 'Issue 999998 does not exist in this application.'],
    ]
    for (const [body, status, error] of cases) expect(await merge(body), JSON.stringify(body)).toMatchObject({ status, body: { error } })
    expect(await merge('{"target":')).toMatchObject({ status: 400 })
    expect(await get('merge-issues', { query: { app }, env })).toMatchObject({ status: 405 })
    // Nothing half-written: both issues, their counts and history as before, and no alias.
    expect((await detail(one.id)).body.data.count).toBe(1)
    expect((await detail(two.id)).body.data.count).toBe(1)
    expect((await detail(two.id)).body.status_history).toHaveLength(0)
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.issueAliases}`)).toBe(0)
  })

  it('moves occurrences, history, tags, days, sources, releases and the tracker link, and deletes the merged issues', async () => {
    expect(
      (
        await ingest([
          { message: 'Alpha failure', release: '1.0', tags: ['alpha', 'shared'], occurred_at: '2026-05-01T10:00:00Z' },
          { message: 'Alpha failure', release: '1.0', occurred_at: '2026-05-02T10:00:00Z' },
          { message: 'Beta failure', release: '2.0', tags: ['beta', 'shared'], occurred_at: '2026-04-30T09:00:00Z' },
          { message: 'Beta failure', release: '2.0', occurred_at: '2026-05-02T11:00:00Z' },
          { message: 'Beta failure', release: '2.0', occurred_at: '2026-05-03T12:00:00Z' },
          { message: 'Gamma failure', occurred_at: '2026-05-04T08:00:00Z' },
        ])
      ).status,
    ).toBe(202)
    const [alpha] = await issueByTitle('Alpha failure')
    const [beta] = await issueByTitle('Beta failure')
    const [gamma] = await issueByTitle('Gamma failure')
    // History on a merged issue, a manual tag, an assignment and a tracker link on Beta.
    expect((await post('issue-status', { id: beta.id, status: 'fixed', note: 'beta note' }, { query: { app }, env })).status).toBe(200)
    const manualTag = await post('tags', { name: 'triaged' }, { query: { app }, env })
    expect((await post('issue-tags', { group_id: beta.id, tag_id: manualTag.body.id }, { query: { app }, env })).status).toBeLessThan(300)
    await db.db.execute({
      sql: `INSERT INTO ${db.t.trackerLinks} (group_id, provider, external_id, identifier, url, state, via, created_at) VALUES (?, 'linear', 'lin-1', 'ENG-1', 'https://linear.app/x/issue/ENG-1', 'Todo', 'sync', '2026-05-01 00:00:00')`,
      args: [beta.id],
    })
    const before = { issues: await issueCount(), daily: await dailyTotal() }

    const response = await merge({ target: alpha.id, ids: [beta.id, String(gamma.id), beta.id] })
    expect(response.status, response.text).toBe(200)
    expect(response.body).toEqual({ target: alpha.id, merged: [beta.id, gamma.id], count: 6, first_seen: '2026-04-30 09:00:00', last_seen: '2026-05-04 08:00:00' })
    // One read, then one atomic batch (PlanetScale: the read, BEGIN, 16 statements, COMMIT).
    expectRoundTrips(response, 2, 19)

    expect(await issueCount()).toBe(before.issues - 2)
    expect(await dailyTotal()).toBe(before.daily)
    expect((await detail(beta.id)).status).toBe(404)
    expect((await detail(gamma.id)).status).toBe(404)
    const merged = await detail(alpha.id)
    expect(merged.body.data).toMatchObject({ count: 6, status: 'open', title: 'Alpha failure', first_seen: '2026-04-30 09:00:00', last_seen: '2026-05-04 08:00:00' })
    expect(merged.body.occurrences).toHaveLength(6)
    const history = merged.body.status_history.map((row: any) => [row.from_status, row.to_status, row.note])
    expect(history).toContainEqual(['open', 'fixed', 'beta note'])
    expect(history).toContainEqual(['open', 'open', `Merged #${beta.id}, #${gamma.id} into this issue.`])
    expect(history).toHaveLength(2)
    expect(await tagsOf(app, alpha.id)).toEqual({ alpha: 'ingest', beta: 'ingest', shared: 'ingest', triaged: 'manual' })

    const days = await db.rows<{ day: string; count: number }>(`SELECT day, count FROM ${db.t.groupDays} WHERE group_id = ? ORDER BY day`, [alpha.id])
    expect(days.map((row) => [row.day, Number(row.count)])).toEqual([
      ['2026-04-30', 1],
      ['2026-05-01', 1],
      ['2026-05-02', 2],
      ['2026-05-03', 1],
      ['2026-05-04', 1],
    ])
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.groupDays} WHERE group_id IN (?, ?)`, [beta.id, gamma.id])).toBe(0)
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.occurrences} WHERE group_id IN (?, ?)`, [beta.id, gamma.id])).toBe(0)
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.groupSources} WHERE group_id = ?`, [alpha.id])).toBe(1)
    const releases = await db.rows<{ r: string }>(`SELECT ${db.db.dialect.quote('release')} AS r FROM ${db.t.releaseGroups} WHERE group_id = ? ORDER BY 1`, [alpha.id])
    expect(releases.map((row) => row.r)).toEqual(['1.0', '2.0'])
    // One-per-issue rows: the target's own first release stays; the link moves (no link of its own) as a push link.
    expect(await db.rows(`SELECT first_release FROM ${db.t.groupReleases} WHERE group_id = ?`, [alpha.id])).toEqual([{ first_release: '1.0' }])
    expect(await db.rows(`SELECT group_id, via FROM ${db.t.trackerLinks} WHERE external_id = 'lin-1'`)).toEqual([{ group_id: expect.anything(), via: 'push' }])
    expect(await db.value(`SELECT group_id FROM ${db.t.trackerLinks} WHERE external_id = 'lin-1'`)).toBe(alpha.id)
    // The value breakdown: the merged issues' releases added to the target's.
    const values = await db.rows<{ value: string; count: number }>(`SELECT value, count FROM ${db.t.issueValues} WHERE group_id = ? AND name = 'release' ORDER BY value`, [alpha.id])
    expect(values.map((row) => [row.value, Number(row.count)])).toEqual([['1.0', 2], ['2.0', 3]])
    // Nothing of the merged issues is left behind: the relation totals and the tags list count these rows
    // without joining the issue (issue-total.ts).
    for (const table of ['occurrences', 'groupDays', 'groupSources', 'history', 'groupTags', 'groupReleases', 'releaseGroups', 'trackerLinks', 'issueValues'] as const) {
      expect(await db.value(`SELECT COUNT(*) FROM ${db.t[table]} WHERE group_id IN (?, ?)`, [beta.id, gamma.id]), table).toBe(0)
    }
    const shared = (await get('tags', { query: { app }, env })).body.data.find((tag: { name: string }) => tag.name === 'shared')
    expect(shared.issue_count).toBe(1)
    expect((await get('issues', { query: { app, tag: 'shared' }, env })).body.meta.total).toBe(1)
    const aliases = await db.rows<{ fingerprint: string; target_fingerprint: string }>(`SELECT fingerprint, target_fingerprint FROM ${db.t.issueAliases} ORDER BY fingerprint`)
    expect(aliases.map((row) => [row.fingerprint, row.target_fingerprint]).sort()).toEqual([[beta.fingerprint, alpha.fingerprint], [gamma.fingerprint, alpha.fingerprint]].sort())
  })

  it('groups later HTTP-ingest events of a merged fingerprint into the target (tags too), then re-points aliases on a chain merge', async () => {
    const [alpha] = await issueByTitle('Alpha failure')
    const issues = await issueCount()
    expect((await ingest([{ message: 'Beta failure', tags: ['late'], occurred_at: '2026-05-06T10:00:00Z' }])).status).toBe(202)
    expect(await issueCount()).toBe(issues)
    expect(await issueByTitle('Beta failure')).toEqual([])
    const after = (await detail(alpha.id)).body.data
    expect(after).toMatchObject({ count: 7, last_seen: '2026-05-06 10:00:00', title: 'Alpha failure' })
    expect((await tagsOf(app, alpha.id)).late).toBe('ingest')

    // Chain: Alpha (a target of aliases) merged into Delta — every alias names Delta, none names Alpha.
    expect((await ingest([{ message: 'Delta failure', occurred_at: '2026-05-07T10:00:00Z' }])).status).toBe(202)
    const [delta] = await issueByTitle('Delta failure')
    expect(await merge({ target: delta.id, ids: [alpha.id] })).toMatchObject({ status: 200, body: { target: delta.id, merged: [alpha.id], count: 8 } })
    // Delta had no first release nor tracker link of its own: Alpha's move on.
    expect(await db.rows(`SELECT first_release FROM ${db.t.groupReleases} WHERE group_id = ?`, [delta.id])).toEqual([{ first_release: '1.0' }])
    expect(await db.value(`SELECT group_id FROM ${db.t.trackerLinks} WHERE external_id = 'lin-1'`)).toBe(delta.id)
    const targets = await db.rows<{ target_fingerprint: string }>(`SELECT DISTINCT target_fingerprint FROM ${db.t.issueAliases}`)
    expect(targets).toEqual([{ target_fingerprint: delta.fingerprint }])
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.issueAliases}`)).toBe(3)
    expect((await ingest([{ message: 'Gamma failure' }, { message: 'Alpha failure' }])).status).toBe(202)
    expect((await detail(delta.id)).body.data.count).toBe(10)
    expect(await issueByTitle('Alpha failure')).toEqual([])
    expect(await issueByTitle('Gamma failure')).toEqual([])
  })

  it('groups a later file import into the target, and keeps the merge through a reindex', async () => {
    const line = (time: string, message: string) => `[2026-06-0${time}] production.ERROR: ${message}`
    const first = [line('1 10:00:00', 'Disk full on node one'), line('1 11:00:00', 'Disk full on node one'), line('2 10:00:00', 'Disk almost full'), ''].join('\n')
    expect((await upload(app, 'storage/first.log', first)).status).toBe(200)
    const [full] = await issueByTitle('Disk full on node one')
    const [almost] = await issueByTitle('Disk almost full')
    expect(await merge({ target: full.id, ids: [almost.id] })).toMatchObject({ status: 200, body: { count: 3 } })

    const later = [line('3 10:00:00', 'Disk almost full'), line('3 11:00:00', 'Disk almost full'), ''].join('\n')
    expect((await upload(app, 'storage/later.log', later)).status).toBe(200)
    expect(await issueByTitle('Disk almost full')).toEqual([])
    expect((await detail(full.id)).body.data).toMatchObject({ count: 5, last_seen: '2026-06-03 11:00:00' })

    // Reindex clears each file (emptying the target) and reads it again: the merge holds, under the same id.
    const reindexed = await post('reindex', undefined, { query: { app }, env })
    expect(reindexed.status, reindexed.text).toBe(200)
    expect(await issueByTitle('Disk almost full')).toEqual([])
    expect((await detail(full.id)).body.data).toMatchObject({ id: full.id, count: 5, first_seen: '2026-06-01 10:00:00', last_seen: '2026-06-03 11:00:00' })
  })

  it('merges into a manual issue, which then receives the merged fingerprint', async () => {
    const manual = await createIssue(app, { title: 'Umbrella issue' })
    expect((await ingest([{ message: 'Epsilon failure', occurred_at: '2026-07-01T00:00:00Z' }])).status).toBe(202)
    const [epsilon] = await issueByTitle('Epsilon failure')
    expect(await merge({ target: manual.id, ids: [epsilon.id] })).toMatchObject({ status: 200, body: { count: 1, first_seen: '2026-07-01 00:00:00' } })
    expect((await ingest([{ message: 'Epsilon failure', occurred_at: '2026-07-02T00:00:00Z' }])).status).toBe(202)
    expect((await detail(manual.id)).body.data).toMatchObject({ count: 2, origin: 'manual', title: 'Umbrella issue' })
    expect(await issueByTitle('Epsilon failure')).toEqual([])
  })

  it('groups a later Sentry event of a merged fingerprint into the target', async () => {
    const settings = (await get('ingest-settings', { query: { app }, env })).body
    const project = new URL(settings.dsn).pathname.slice(1)
    const store = async (message: string) => {
      const ctx = createExecutionContext()
      const request = new Request(`${ORIGIN}/api/${project}/store/?sentry_key=${key}`, { method: 'POST', body: JSON.stringify({ message, level: 'error', logger: 'jobs' }) })
      const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...baseEnv, ...SECRET } as Env, ctx)
      await waitOnExecutionContext(ctx)
      expect(response.status).toBe(200)
    }
    await store('Sentry zeta failure')
    await store('Sentry eta failure')
    const [zeta] = await issueByTitle('Sentry zeta failure')
    const [eta] = await issueByTitle('Sentry eta failure')
    expect(await merge({ target: zeta.id, ids: [eta.id] })).toMatchObject({ status: 200, body: { count: 2 } })
    await store('Sentry eta failure')
    expect(await issueByTitle('Sentry eta failure')).toEqual([])
    expect((await detail(zeta.id)).body.data.count).toBe(3)
  })

  // Last: the issues it adds would change the alias counts the tests above assert.
  it('adds the merged value breakdown under the cap: held values add up, new ones most frequent first, the rest as (other)', async () => {
    const users = (title: string, ids: string[]) => ids.map((id, i) => ({ message: title, user: { id }, occurred_at: `2026-06-01T10:00:${String(i % 60).padStart(2, '0')}Z` }))
    const held = Array.from({ length: VALUES_PER_NAME - 1 }, (_, i) => `held-${i}`)
    expect((await ingest(users('Cap target', held))).status).toBe(202)
    expect((await ingest(users('Cap merged', ['new-a', 'new-a', 'new-b', 'held-3']))).status).toBe(202)
    const [capTarget] = await issueByTitle('Cap target')
    const [capMerged] = await issueByTitle('Cap merged')
    expect((await merge({ target: capTarget.id, ids: [capMerged.id] })).status).toBe(200)
    const rows = await db.rows<{ value: string; count: number }>(`SELECT value, count FROM ${db.t.issueValues} WHERE group_id = ? AND name = 'user'`, [capTarget.id])
    const counts = new Map(rows.map((row) => [row.value, Number(row.count)]))
    // One slot was free: the most frequent new value takes it; the other new one counts as (other).
    expect(counts.size).toBe(VALUES_PER_NAME + 1)
    expect(counts.get('new-a')).toBe(2)
    expect(counts.get('held-3')).toBe(2)
    expect(counts.get(OTHER_VALUE)).toBe(1)
    expect(counts.has('new-b')).toBe(false)
    expect([...counts.values()].reduce((sum, n) => sum + n, 0)).toBe(VALUES_PER_NAME - 1 + 4)
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.issueValues} WHERE group_id = ?`, [capMerged.id])).toBe(0)
  })
})
