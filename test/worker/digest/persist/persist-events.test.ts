import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseLog } from '../../../../worker/digest/parse-log.ts'
import { toEventRecords } from '../../../../worker/digest/persist/event-record.ts'
import { DEFAULT_BATCH_LIMITS } from '../../../../worker/digest/persist/batch-payload.ts'
import { persistEvents } from '../../../../worker/digest/persist/persist-events.ts'
import { REOCCURRED_NOTE } from '../../../../worker/digest/persist/persist-statements.ts'
import { TARGETS } from '../../../drivers/driver-targets.ts'
import { migratedScope, type MigratedScope } from './migrated-scope.ts'

function laravelLines(count: number, from = 0): string {
  let text = ''
  for (let i = from; i < from + count; i++) text += `[2026-02-01 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}] production.ERROR: Order ${i} failed\n`
  return text
}

async function records(text: string, baseOffset = 0) {
  const parsed = parseLog(new TextEncoder().encode(text), { fileName: 'laravel.log', baseOffset, isEndOfFile: true, fileModifiedAt: '2026-01-01 00:00:00', now: '2026-01-01 00:00:00' })
  return toEventRecords(parsed.events, { moduleId: null, channel: 'laravel.log' })
}

describe.each(TARGETS)('persistEvents on %s', { timeout: 60_000 }, (target) => {
  let m: MigratedScope
  let fileId: number
  beforeAll(async () => {
    m = await migratedScope(target, 'persist')
    const { t } = m.scope
    await m.scope.db.batch([
      { sql: `INSERT INTO ${t.sourceFiles} (path, size, created_at) VALUES ('processed/x/laravel.log', 0, '2026-01-01 00:00:00')` },
      { sql: `INSERT INTO ${t.fileImports} (source_file_id, updated_at) SELECT id, '2026-01-01 00:00:00' FROM ${t.sourceFiles} WHERE path = 'processed/x/laravel.log'` },
    ])
    fileId = Number((await m.rows<{ id: number }>(`SELECT id FROM ${t.sourceFiles}`))[0]!.id)
  })
  afterAll(() => m.close())

  it('writes a 1,000-event batch in one round trip (ten on PlanetScale), and 2,500 events in three 1,000-event batches', async () => {
    const first = await records(laravelLines(1000))
    let before = m.opened.roundTrips()
    expect(await persistEvents(m.scope, first, { sourceFileId: fileId, importBatch: 'run-1', now: '2026-02-02 00:00:00', checkpoint: { nextOffset: 1, insideEvent: false } })).toBe(1)
    expect(m.opened.roundTrips() - before).toBe(target === 'planetscale' ? 10 : 1)
    const text = laravelLines(2500, 1000)
    const offset = new TextEncoder().encode(laravelLines(1000)).length
    const more = await records(text, offset)
    before = m.opened.roundTrips()
    const limits = { ...DEFAULT_BATCH_LIMITS, maxEvents: 1000 }
    expect(await persistEvents(m.scope, more, { sourceFileId: fileId, importBatch: 'run-2', now: '2026-02-02 00:00:00', checkpoint: { nextOffset: 2, insideEvent: false }, limits })).toBe(3)
    // PlanetScale: BEGIN + COMMIT around 8 statements, less the new-issue insert once the run has stored the issue.
    expect(m.opened.roundTrips() - before).toBe(target === 'planetscale' ? 10 + 9 + 10 : 3)
    const { t } = m.scope
    expect(await m.rows(`SELECT count, first_seen, last_seen, sample_message FROM ${t.groups}`)).toEqual([
      { count: 3500, first_seen: '2026-02-01 00:00:00', last_seen: '2026-02-01 00:58:19', sample_message: 'Order 3499 failed' },
    ])
    expect(await m.rows(`SELECT next_offset, occurrence_count FROM ${t.fileImports}`)).toEqual([{ next_offset: 2, occurrence_count: 3500 }])
    expect(await m.rows(`SELECT day, count FROM ${t.groupDays}`)).toEqual([{ day: '2026-02-01', count: 3500 }])
  })

  it('counts nothing twice when the same events are persisted again', async () => {
    const again = await records(laravelLines(1000))
    await persistEvents(m.scope, again, { sourceFileId: fileId, importBatch: 'run-3', now: '2026-02-03 00:00:00' })
    const { t } = m.scope
    expect(await m.rows(`SELECT count FROM ${t.groups}`)).toEqual([{ count: 3500 }])
    expect(await m.rows(`SELECT COUNT(*) AS n FROM ${t.occurrences}`)).toEqual([{ n: 3500 }])
    expect(await m.rows(`SELECT SUM(count) AS n FROM ${t.groupDays}`)).toEqual([{ n: 3500 }])
    expect(await m.rows(`SELECT occurrence_count FROM ${t.fileImports}`)).toEqual([{ occurrence_count: 3500 }])
  })

  it('moves a fixed issue to reoccurred with exactly one history row, once', async () => {
    const { t } = m.scope
    await m.scope.db.execute({ sql: `UPDATE ${t.groups} SET status = 'fixed'` })
    const offset = new TextEncoder().encode(laravelLines(3500)).length
    for (const [n, from] of [[1, 3500], [2, 3510]] as const) {
      const text = laravelLines(10, from)
      const base = offset + (n === 2 ? new TextEncoder().encode(laravelLines(10, 3500)).length : 0)
      await persistEvents(m.scope, await records(text, base), { sourceFileId: fileId, importBatch: `regress-${n}`, now: '2026-02-04 00:00:00' })
    }
    expect(await m.rows(`SELECT status, status_updated_at, count FROM ${t.groups}`)).toEqual([{ status: 'reoccurred', status_updated_at: '2026-02-04 00:00:00', count: 3520 }])
    expect(await m.rows(`SELECT from_status, to_status, note, actor FROM ${t.history}`)).toEqual([
      { from_status: 'fixed', to_status: 'reoccurred', note: REOCCURRED_NOTE, actor: null },
    ])
  })

  it('ends a run with every touched issue carrying its latest sample, and tag rules applied to it', async () => {
    const { t } = m.scope
    await m.scope.db.batch([
      { sql: `INSERT INTO ${t.tags} (name, name_key, created_at) VALUES ('Refunds', 'refunds', '2026-01-01 00:00:00')` },
      { sql: `INSERT INTO ${t.tagRules} (tag_id, match_word, enabled, created_at) SELECT id, 'refund', 1, '2026-01-01 00:00:00' FROM ${t.tags}` },
    ])
    // Two issues over five one-event batches; only the last event of "Payment" mentions a refund (in its
    // context, so the title — and the fingerprint — stay the same).
    const lines = [
      '[2026-03-01 10:00:00] production.ERROR: Payment 1 declined {"step":"charge"}',
      '[2026-03-01 10:00:01] production.ERROR: Export 1 stalled',
      '[2026-03-01 10:00:02] production.ERROR: Payment 2 declined {"step":"charge"}',
      '[2026-03-01 10:00:03] production.ERROR: Export 2 stalled',
      '[2026-03-01 10:00:04] production.ERROR: Payment 3 declined {"step":"refund"}',
    ]
    const base = 10_000_000
    const persisted = await persistEvents(m.scope, await records(`${lines.join('\n')}\n`, base), {
      sourceFileId: fileId,
      importBatch: 'samples-1',
      now: '2026-03-02 00:00:00',
      limits: { ...DEFAULT_BATCH_LIMITS, maxEvents: 1 },
    })
    expect(persisted).toBe(5)
    const issues = await m.rows<{ title: string; count: number; sample_message: string; first_seen: string; last_seen: string }>(
      `SELECT title, count, sample_message, first_seen, last_seen FROM ${t.groups} WHERE title LIKE 'Payment%' OR title LIKE 'Export%' ORDER BY title`,
    )
    expect(issues).toEqual([
      { title: 'Export 2 stalled', count: 2, sample_message: 'Export 2 stalled', first_seen: '2026-03-01 10:00:01', last_seen: '2026-03-01 10:00:03' },
      { title: 'Payment 3 declined', count: 3, sample_message: 'Payment 3 declined {"step":"refund"}', first_seen: '2026-03-01 10:00:00', last_seen: '2026-03-01 10:00:04' },
    ])
    const tagged = await m.rows<{ title: string; source: string }>(
      `SELECT g.title, gt.source FROM ${t.groupTags} gt JOIN ${t.groups} g ON g.id = gt.group_id ORDER BY g.title`,
    )
    expect(tagged).toEqual([{ title: 'Payment 3 declined', source: 'rule' }])
  })
})
