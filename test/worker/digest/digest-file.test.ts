import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importLimits } from '../../../worker/jobs/import-limits.ts'
import { createBudget, type ImportContext } from '../../../worker/jobs/import-context.ts'
import { importFile } from '../../../worker/digest/digest-file.ts'
import { emptyResult } from '../../../worker/jobs/import-result.ts'
import { selectFileStates, toFileState } from '../../../worker/jobs/file-state.ts'
import { importVersion } from '../../../worker/settings/ingestion-settings.ts'
import { TARGETS } from '../../drivers/driver-targets.ts'
import { migratedScope, type MigratedScope } from './persist/migrated-scope.ts'
import { memoryLogStore } from '../intake/memory-log-store.ts'
import { parseConfig } from '../../../worker/config.ts'

const EVENTS = 5000
const KEY = 'processed/app/laravel.log'

function laravelLines(count: number): string {
  let text = ''
  for (let i = 0; i < count; i++) text += `[2026-02-01 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}] production.ERROR: Order ${i} failed\n`
  return text
}

describe.each(TARGETS)('importFile on %s', { timeout: 60_000 }, (target) => {
  let m: MigratedScope
  const bytes = new TextEncoder().encode(laravelLines(EVENTS))
  const severities = ['ERROR', 'WARNING'] as const

  const context = (): ImportContext => ({
    scope: m.scope,
    logs: memoryLogStore({ [KEY]: bytes }).store,
    now: () => new Date('2026-02-02T00:00:00Z'),
    severities: [...severities],
    allowed: new Set(severities),
    version: importVersion([...severities]),
    limits: importLimits({ config: parseConfig({ SERVICE_CONFIG: '{"ingestion":{"import_batch_events":1000}}' }) }),
    result: emptyResult([...severities]),
    touched: new Set(),
    alreadyIngested: [],
    failures: new Map(),
    pluginSettings: null,
    progress: async () => {},
  })
  const state = async () => {
    const { rows } = await m.scope.db.execute(selectFileStates(m.scope, 's.path = ?', [KEY]))
    return toFileState(rows[0]!)
  }
  const counts = async () => {
    const { t } = m.scope
    const [row] = await m.rows<{ n: number; d: number }>(`SELECT COUNT(*) AS n, COUNT(DISTINCT byte_start) AS d FROM ${t.occurrences}`)
    const [group] = await m.rows<{ count: number }>(`SELECT count FROM ${t.groups}`)
    const [days] = await m.rows<{ n: number }>(`SELECT SUM(count) AS n FROM ${t.groupDays}`)
    const [file] = await m.rows<{ occurrence_count: number }>(`SELECT occurrence_count FROM ${t.fileImports}`)
    return { occurrences: Number(row!.n), distinct: Number(row!.d), count: Number(group?.count ?? 0), days: Number(days?.n ?? 0), file: Number(file?.occurrence_count ?? 0) }
  }

  beforeAll(async () => {
    m = await migratedScope(target, 'importfile')
  })
  afterAll(() => m.close())

  for (const afterCommit of [false, true]) {
    it(`resumes without duplicates after a batch fails ${afterCommit ? 'after' : 'before'} it committed`, async () => {
      const { t } = m.scope
      await m.scope.db.batch([
        { sql: `DELETE FROM ${t.groups}` },
        { sql: `DELETE FROM ${t.sourceFiles}` },
        {
          sql: `INSERT INTO ${t.sourceFiles} (path, size, created_at, parser_version, log_type, channel) VALUES (?, ?, '2026-01-01 00:00:00', ?, 'laravel', 'laravel.log')`,
          args: [KEY, bytes.length, importVersion([...severities])],
        },
        { sql: `INSERT INTO ${t.fileImports} (source_file_id, parser_id, updated_at) SELECT id, 'laravel', '2026-01-01 00:00:00' FROM ${t.sourceFiles}` },
      ])
      m.driver.failBatch(3, afterCommit) // the third 1,000-event batch
      await expect(importFile(context(), await state(), createBudget(1 << 30, 60))).rejects.toThrow(/connection lost/)
      const interrupted = await counts()
      expect(interrupted.occurrences).toBe(afterCommit ? 3000 : 2000)
      expect((await state()).next_offset).toBe(new TextEncoder().encode(laravelLines(interrupted.occurrences)).length)
      const ctx = context()
      expect(await importFile(ctx, await state(), createBudget(1 << 30, 60))).toEqual({ done: true })
      expect(ctx.result.events).toBe(EVENTS - interrupted.occurrences)
      // The resumed run read every event after the checkpoint; what it did not store was already stored.
      expect(ctx.result.file_results).toEqual([
        { path: KEY, format: 'laravel', read: EVENTS - interrupted.occurrences, stored: EVENTS - interrupted.occurrences, skipped: {}, already_stored: 0, unparseable: 0 },
      ])
      expect(await counts()).toEqual({ occurrences: EVENTS, distinct: EVENTS, count: EVENTS, days: EVENTS, file: EVENTS })
      expect((await state()).next_offset).toBe(bytes.length)
    })
  }

  it('accounts for every line of a file: stored, skipped by severity, unparseable', async () => {
    const { t } = m.scope
    const text = 'preamble\n[2026-02-01 00:00:00] production.ERROR: a\n[2026-02-01 00:00:01] production.DEBUG: b\n[2026-02-01 00:00:02] production.INFO: c\n[2026-02-01 00:00:03] production.DEBUG: d\n[2026-02-01 00:00:04] production.WARNING: e\n'
    const small = new TextEncoder().encode(text)
    await m.scope.db.batch([
      { sql: `DELETE FROM ${t.groups}` },
      { sql: `UPDATE ${t.fileImports} SET next_offset = 0, inside_event = 0, occurrence_count = 0` },
      { sql: `DELETE FROM ${t.occurrences}` },
      { sql: `UPDATE ${t.sourceFiles} SET size = ?`, args: [small.length] },
    ])
    const ctx = { ...context(), logs: memoryLogStore({ [KEY]: small }).store }
    expect(await importFile(ctx, await state(), createBudget(1 << 30, 60))).toEqual({ done: true })
    expect(ctx.result.file_results).toEqual([
      { path: KEY, format: 'laravel', read: 5, stored: 2, skipped: { INFO: 1, DEBUG: 2 }, already_stored: 0, unparseable: 1 },
    ])
  })

  it('stops at the budget and continues where it stopped', async () => {
    const { t } = m.scope
    await m.scope.db.batch([
      { sql: `DELETE FROM ${t.groups}` },
      { sql: `UPDATE ${t.fileImports} SET next_offset = 0, inside_event = 0, occurrence_count = 0` },
      { sql: `DELETE FROM ${t.occurrences}` },
    ])
    const big = new TextEncoder().encode(laravelLines(40_000)) // > 1 MiB: two chunks
    await m.scope.db.execute({ sql: `UPDATE ${t.sourceFiles} SET size = ?`, args: [big.length] })
    const ctx = { ...context(), logs: memoryLogStore({ [KEY]: big }).store }
    expect(await importFile(ctx, await state(), createBudget(1, 60))).toEqual({ done: false })
    const first = ctx.result.events
    expect(first).toBeGreaterThan(0)
    const rest = { ...context(), logs: memoryLogStore({ [KEY]: big }).store }
    expect(await importFile(rest, await state(), createBudget(1 << 30, 60))).toEqual({ done: true })
    expect(first + rest.result.events).toBe(40_000)
    expect((await counts()).occurrences).toBe(40_000)
  })
})
