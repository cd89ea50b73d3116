import { describe, expect, it } from 'vitest'
import { createTestApp, get, post } from './helpers/api.ts'
import { createIssue } from './helpers/fixtures.ts'
import { appDatabase, ok, upload } from './ingestion-helpers.ts'

/**
 * `group_channels` (migration 0018, issue 18) folds `group_sources` by the files' channels, so that a `source=`
 * value naming exactly one channel's files counts one index range (worker/issues/issue-total.ts). It must equal
 * that fold after every write that changes `group_sources` or a file's channel — digest, merge, deleting logs
 * by day and by file, a file registered again under a channel it lacked — and the totals must stay those of the
 * general form.
 */
describe('channel rows follow the issues\' files (migration 0018)', { timeout: 120_000 }, () => {
  /** `group_channels` equals the distinct (channel, issue) pairs of `group_sources`; returns them. */
  const expectChannelsExact = async (app: string) => {
    const { t, rows } = await appDatabase(app)
    const pairs = (sql: string) => rows<{ channel: string; group_id: number }>(sql).then((list) => list.map((row) => `${row.channel}:${Number(row.group_id)}`).sort())
    const kept = await pairs(`SELECT channel, group_id FROM ${t.groupChannels}`)
    expect(kept).toEqual(await pairs(`SELECT DISTINCT s.channel, gs.group_id FROM ${t.groupSources} gs JOIN ${t.sourceFiles} s ON s.id = gs.source_file_id WHERE s.channel IS NOT NULL`))
    return kept
  }
  /**
   * A value naming every file is counted from the files it does not name (issue-total.ts `outsideTotal`): exact
   * only while every ingested issue without a (file, issue) pair is a merge target, which each write keeps.
   */
  const expectEveryFileTotal = async (app: string, expected: string[]) => {
    const { t, rows } = await appDatabase(app)
    const [stray] = await rows<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t.groups} g WHERE g.origin = 'ingested'
      AND NOT EXISTS (SELECT 1 FROM ${t.groupSources} gs WHERE gs.group_id = g.id)
      AND NOT EXISTS (SELECT 1 FROM ${t.issueAliases} ia WHERE ia.target_fingerprint = g.fingerprint)`)
    expect(Number(stray!.n)).toBe(0)
    expect(await list(app, { source: 'shop/' })).toEqual({ titles: expected, total: expected.length })
  }
  const list = async (app: string, query: Record<string, string>) => {
    const page = await ok(get('issues', { query: { app, ...query } }))
    return { titles: page.data.map((issue: { title: string }) => issue.title).sort(), total: page.meta.total }
  }
  /** One ERROR line per word, each word its own issue (titles differ by more than numbers). */
  const lines = (day: string, ...words: string[]) => words.map((word, i) => `[${day} 10:00:0${i}] production.ERROR: ${word} exploded\n`).join('')
  const titles = (...words: string[]) => words.map((word) => `${word} exploded`).sort()

  it('digest, merge and deleting logs keep the rows; a channel total equals the list', async () => {
    const app = await createTestApp('group-channels')
    // Two files of channel app.log (an older copy under the same name in a subfolder), one of worker.log, all of module shop
    // (an issue belongs to one module): Beta is in all three files.
    await upload(app, 'shop/app.log', lines('2026-04-01', 'Alpha', 'Beta'))
    await upload(app, 'shop/old/app.log', lines('2026-04-02', 'Beta', 'Gamma'))
    await upload(app, 'shop/worker.log', lines('2026-04-03', 'Beta', 'Delta'))
    expect((await expectChannelsExact(app)).length).toBe(5)
    expect(await list(app, { source: 'app.log' })).toEqual({ titles: titles('Alpha', 'Beta', 'Gamma'), total: 3 })
    expect(await list(app, { source: 'worker.log' })).toEqual({ titles: titles('Beta', 'Delta'), total: 2 })
    // A path substring naming files of two channels: here every file, counted from the files it does not name.
    await expectEveryFileTotal(app, titles('Alpha', 'Beta', 'Gamma', 'Delta'))

    // Delta (worker.log only) merged into Alpha (app.log): the target gains worker.log.
    const ids = new Map<string, number>((await ok(get('issues', { query: { app } }))).data.map((issue: { id: number; title: string }) => [issue.title, issue.id]))
    const id = (word: string) => ids.get(`${word} exploded`)!
    await ok(post('merge-issues', { target: id('Alpha'), ids: [id('Delta')] }, { query: { app } }))
    await expectChannelsExact(app)
    expect(await list(app, { source: 'worker.log' })).toEqual({ titles: titles('Alpha', 'Beta'), total: 2 })
    await expectEveryFileTotal(app, titles('Alpha', 'Beta', 'Gamma'))

    // Deleting a day: Gamma loses its only occurrence (the issue goes); Beta keeps app.log through shop/app.log.
    await ok(post('delete-logs', { date: '2026-04-02', confirmation: 'DELETE LOGS' }, { query: { app } }))
    await expectChannelsExact(app)
    expect(await list(app, { source: 'app.log' })).toEqual({ titles: titles('Alpha', 'Beta'), total: 2 })
    await expectEveryFileTotal(app, titles('Alpha', 'Beta'))
    // Deleting a file: worker.log's issues keep their other channels only.
    const sources = (await ok(get('sources', { query: { app } }))).data as { id: number; path: string }[]
    const worker = sources.find((file) => file.path.endsWith('worker.log'))!
    await ok(post('delete-logs', { source_id: worker.id, confirmation: 'DELETE LOGS' }, { query: { app } }))
    expect(await expectChannelsExact(app)).toEqual([`app.log:${id('Alpha')}`, `app.log:${id('Beta')}`].sort())
    expect(await list(app, { source: 'worker.log' })).toEqual({ titles: [], total: 0 })
    // A manual issue has no file and no channel row.
    await createIssue(app, { title: 'Channel-less manual issue' })
    await expectChannelsExact(app)
    await expectEveryFileTotal(app, titles('Alpha', 'Beta'))
    // The first day deleted: Beta goes; Alpha, a merge target, stays without an occurrence (and without a file).
    await ok(post('delete-logs', { date: '2026-04-01', confirmation: 'DELETE LOGS' }, { query: { app } }))
    expect((await list(app, {})).titles).toEqual(['Alpha exploded', 'Channel-less manual issue'])
    await expectEveryFileTotal(app, [])
  })

  it('a file registered again under the channel it lacked gives its issues their rows', async () => {
    const app = await createTestApp('group-channels-registered')
    const first = lines('2026-04-01', 'Alpha', 'Beta')
    await upload(app, 'shop/app.log', first)
    await upload(app, 'billing/app.log', lines('2026-04-02', 'Gamma'))
    // As a file registered before it had a channel: no channel, no rows.
    const { t, db } = await appDatabase(app)
    await db.batch([
      { sql: `UPDATE ${t.sourceFiles} SET channel = NULL WHERE path LIKE ?`, args: ['%shop/app.log'] },
      { sql: `DELETE FROM ${t.groupChannels} WHERE group_id IN (SELECT gs.group_id FROM ${t.groupSources} gs JOIN ${t.sourceFiles} s ON s.id = gs.source_file_id WHERE s.channel IS NULL)` },
    ])
    await expectChannelsExact(app)
    expect(await list(app, { source: 'app.log' })).toEqual({ titles: titles('Alpha', 'Beta', 'Gamma'), total: 3 })
    // Appended to: registered again, with its channel.
    await upload(app, 'shop/app.log', first + lines('2026-04-03', 'Delta'))
    expect((await expectChannelsExact(app)).length).toBe(4)
    expect(await list(app, { source: 'app.log' })).toEqual({ titles: titles('Alpha', 'Beta', 'Gamma', 'Delta'), total: 4 })
  })

  it('the migration builds the rows of issues digested before it, and running it again changes nothing', async () => {
    const app = await createTestApp('group-channels-backfill')
    await upload(app, 'shop/app.log', lines('2026-04-01', 'Alpha', 'Beta'))
    await upload(app, 'shop/worker.log', lines('2026-04-01', 'Beta'))
    const { t, db } = await appDatabase(app)
    const exact = await expectChannelsExact(app)
    await db.execute({ sql: `DELETE FROM ${t.groupChannels}` })
    const { MIGRATIONS } = await import('../../drivers/migrations/index.ts')
    const step = MIGRATIONS[db.dialect.name].application.find((migration) => migration.version === 18)!
    const prefix = (await get('applications')).body.data.find((candidate: { id: string }) => candidate.id === app).table_prefix
    await db.batch(step.statements(prefix).map((sql) => ({ sql })))
    expect(await expectChannelsExact(app)).toEqual(exact)
    await db.batch(step.statements(prefix).map((sql) => ({ sql })))
    expect(await expectChannelsExact(app)).toEqual(exact)
  })
})
