import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../../../drivers/migrations/index.ts'
import { parseLog } from '../../../../worker/digest/parse-log.ts'
import { foldDailyCountsStatements } from '../../../../worker/digest/persist/daily-counts.ts'
import { deleteOccurrences } from '../../../../worker/digest/persist/delete-occurrences.ts'
import { toEventRecords } from '../../../../worker/digest/persist/event-record.ts'
import { persistEvents } from '../../../../worker/digest/persist/persist-events.ts'
import { TARGETS } from '../../../drivers/driver-targets.ts'
import { migratedScope, type MigratedScope } from './migrated-scope.ts'

/** `count` lines on `day` at consecutive seconds from `from` (byte offsets follow `offset`). */
function lines(day: string, count: number, from: number, level = 'ERROR'): string {
  let text = ''
  for (let i = from; i < from + count; i++) text += `[${day} 00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}] production.${level}: Order ${i} failed\n`
  return text
}

describe.each(TARGETS)('daily_counts (migration 0004) on %s', { timeout: 60_000 }, (target) => {
  let m: MigratedScope
  let fileId: number
  let offset = 0
  /** Persists a stretch of the one test file as a run that never reached its fold (a crashed import). */
  const persist = async (text: string) => {
    const parsed = parseLog(new TextEncoder().encode(text), { fileName: 'laravel.log', baseOffset: offset, isEndOfFile: true, fileModifiedAt: '2026-01-01 00:00:00', now: '2026-01-01 00:00:00' })
    offset += new TextEncoder().encode(text).length
    await persistEvents(m.scope, toEventRecords(parsed.events, { moduleId: null, channel: 'laravel.log' }), { sourceFileId: fileId, importBatch: `run-${offset}`, now: '2026-03-01 00:00:00' })
  }
  const fold = () => m.scope.db.batch(foldDailyCountsStatements(m.scope))
  const counts = () => m.rows(`SELECT day, severity, count FROM ${m.scope.t.dailyCounts} WHERE count <> 0 ORDER BY day, severity`)
  const fromOccurrences = () =>
    m.rows(`SELECT occurred_day AS day, severity, COUNT(*) AS count FROM ${m.scope.t.occurrences} GROUP BY occurred_day, severity ORDER BY occurred_day, severity`)

  beforeAll(async () => {
    m = await migratedScope(target, 'daily')
    const { t } = m.scope
    await m.scope.db.batch([
      { sql: `INSERT INTO ${t.sourceFiles} (path, size, created_at) VALUES ('processed/x/laravel.log', 0, '2026-01-01 00:00:00')` },
      { sql: `INSERT INTO ${t.fileImports} (source_file_id, updated_at) SELECT id, '2026-01-01 00:00:00' FROM ${t.sourceFiles}` },
    ])
    fileId = Number((await m.rows<{ id: number }>(`SELECT id FROM ${t.sourceFiles}`))[0]!.id)
  })
  afterAll(() => m.close())

  it('counts nothing until a fold, then every occurrence since the last fold — a crashed run included', async () => {
    await persist(lines('2026-02-01', 30, 0))
    expect(await counts()).toEqual([])
    await fold()
    expect(await counts()).toEqual([{ day: '2026-02-01', severity: 'ERROR', count: 30 }])
    await persist(lines('2026-02-02', 20, 100, 'WARNING')) // this run "crashed" before its fold
    await persist(lines('2026-02-01', 5, 200))
    await fold()
    const expected = [
      { day: '2026-02-01', severity: 'ERROR', count: 35 },
      { day: '2026-02-02', severity: 'WARNING', count: 20 },
    ]
    expect(await counts()).toEqual(expected)
    await fold()
    expect(await counts()).toEqual(expected)
    expect(await counts()).toEqual(await fromOccurrences())
  })

  it('takes deleted occurrences out, but only those already folded in', async () => {
    await persist(lines('2026-02-03', 7, 300)) // not folded yet
    await deleteOccurrences(m.scope, { where: 'occurred_day = ?', args: ['2026-02-02'] })
    await deleteOccurrences(m.scope, { where: 'occurred_day = ?', args: ['2026-02-03'] })
    expect(await counts()).toEqual([{ day: '2026-02-01', severity: 'ERROR', count: 35 }])
    await fold()
    expect(await counts()).toEqual([{ day: '2026-02-01', severity: 'ERROR', count: 35 }])
    expect(await counts()).toEqual(await fromOccurrences())
  })

  it('is backfilled by the migration from the occurrences already stored, and running the step twice changes nothing', async () => {
    await persist(lines('2026-02-04', 4, 400))
    const { t } = m.scope
    await m.scope.db.batch([{ sql: `DELETE FROM ${t.dailyCounts}` }, { sql: `DELETE FROM ${t.rollups}` }])
    const step = MIGRATIONS[m.scope.db.dialect.name].application.find((migration) => migration.version === 4)!
    for (let run = 0; run < 2; run++) await m.scope.db.batch(step.statements(m.prefix).map((sql) => ({ sql })))
    expect(await counts()).toEqual(await fromOccurrences())
    await fold()
    expect(await counts()).toEqual(await fromOccurrences())
    expect(await counts()).toContainEqual({ day: '2026-02-04', severity: 'ERROR', count: 4 })
  })
})
