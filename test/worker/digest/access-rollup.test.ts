import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importLimits } from '../../../worker/jobs/import-limits.ts'
import { createBudget, type ImportContext } from '../../../worker/jobs/import-context.ts'
import { importFile } from '../../../worker/digest/digest-file.ts'
import { AGENTS_PER_DAY, ITEM_CHARS, METHODS_PER_DAY, OVERFLOW_ITEM, PATHS_PER_DAY } from '../../../worker/digest/access-rollup.ts'
import { emptyResult } from '../../../worker/jobs/import-result.ts'
import { selectFileStates, toFileState } from '../../../worker/jobs/file-state.ts'
import { importVersion } from '../../../worker/settings/ingestion-settings.ts'
import { accessAnalytics } from '../../../worker/plugins/access-analytics/access-analytics.ts'
import { accessAnalyticsPlugin } from '../../../worker/plugins/access-analytics/plugin.ts'
import { TARGETS } from '../../drivers/driver-targets.ts'
import { migratedScope, type MigratedScope } from './persist/migrated-scope.ts'
import { memoryLogStore } from '../intake/memory-log-store.ts'
import { parseConfig } from '../../../worker/config.ts'

const KEY = 'processed/app/access.log'
const encode = (text: string) => new TextEncoder().encode(text)
/** 120 lines of real nginx traffic (test/fixtures/logs/real/README.md): 32 2xx, 38 3xx, 50 4xx. */
const GEOSERVER = readFileSync(new URL('../../fixtures/logs/real/nginx-access-geoserver.log', import.meta.url))
/** opcodesio/log-viewer's Apache combined-format fixture: 10 lines over 10 days of 2023. */
const LOG_VIEWER = readFileSync(new URL('../../fixtures/logs/real/apache-access-log-viewer.log', import.meta.url))

const STATUSES = [200, 200, 301, 404, 500, 200]
/** `count` access lines on 2026-02-01: statuses cycle through STATUSES, paths through /p/0../p/6 (with queries). */
function accessLines(count: number): string {
  let text = ''
  for (let i = 0; i < count; i++) {
    const time = `${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`
    text += `10.0.0.${i % 250} - - [01/Feb/2026:${time} +0000] "${i % 4 === 0 ? 'POST' : 'GET'} /p/${i % 7}?q=${i} HTTP/1.1" ${STATUSES[i % STATUSES.length]} 12 "-" "agent-${i % 3}"\n`
  }
  return text
}

describe.each(TARGETS)('access rollup on %s', { timeout: 60_000 }, (target) => {
  let m: MigratedScope
  const severities = ['ERROR', 'WARNING'] as const

  const context = (bytes: Uint8Array, batchEvents = 1000): ImportContext => ({
    scope: m.scope,
    logs: memoryLogStore({ [KEY]: bytes }).store,
    now: () => new Date('2026-02-02T00:00:00Z'),
    severities: [...severities],
    allowed: new Set(severities),
    version: importVersion([...severities]),
    limits: importLimits({ config: parseConfig({ SERVICE_CONFIG: JSON.stringify({ ingestion: { import_batch_events: batchEvents } }) }) }),
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
  /** A fresh source file holding `bytes`, never read (`version` as given: 0 means "read under another version"). */
  const register = async (bytes: Uint8Array, version = importVersion([...severities])) => {
    const { t } = m.scope
    await m.scope.db.batch([
      { sql: `DELETE FROM ${t.groups}` },
      { sql: `DELETE FROM ${t.occurrences}` },
      { sql: `DELETE FROM ${t.fileImports}` },
      { sql: `DELETE FROM ${t.sourceFiles}` },
      { sql: `DELETE FROM ${t.accessRollup}` },
      {
        sql: `INSERT INTO ${t.sourceFiles} (path, size, created_at, parser_version, log_type, channel) VALUES (?, ?, '2026-01-01 00:00:00', ?, 'nginx_access', 'access.log')`,
        args: [KEY, bytes.length, version],
      },
      { sql: `INSERT INTO ${t.fileImports} (source_file_id, parser_id, updated_at) SELECT id, 'nginx-access', '2026-01-01 00:00:00' FROM ${t.sourceFiles}` },
    ])
  }
  const sums = async (group: 'day' | 'status_class' | 'method' | 'item', kind = 'p') => {
    const rows = await m.rows<{ k: string; n: number }>(
      `SELECT ${group} AS k, SUM(count) AS n FROM ${m.scope.t.accessRollup} WHERE kind = ? GROUP BY ${group}`,
      [kind],
    )
    return Object.fromEntries(rows.map((row) => [row.k, Number(row.n)]))
  }
  const total = async () => Object.values(await sums('day')).reduce((a, b) => a + b, 0)
  const occurrences = async () => Number((await m.rows<{ n: number }>(`SELECT COUNT(*) AS n FROM ${m.scope.t.occurrences}`))[0]!.n)

  beforeAll(async () => {
    m = await migratedScope(target, 'access')
  })
  afterAll(() => m.close())

  it('counts every line of a real nginx access log, not only the 4xx the allow-list stores', async () => {
    await register(GEOSERVER)
    const ctx = context(GEOSERVER)
    expect(await importFile(ctx, await state(), createBudget(1 << 30, 60))).toEqual({ done: true })
    expect(await occurrences()).toBe(50)
    expect(await sums('status_class')).toEqual({ '2xx': 32, '3xx': 38, '4xx': 50 })
    expect(await sums('method')).toEqual({ GET: 105, POST: 7, '': 8 })
    expect(await sums('day')).toEqual({ '2020-08-26': 21, '2020-08-27': 99 })
    const paths = await sums('item')
    expect(Object.keys(paths).length).toBe(23)
    expect([paths['/'], paths['/proxy/mapbox/'], paths['/favicon.ico'], paths['']]).toEqual([49, 18, 13, 8])
    const agents = await sums('item', 'a')
    expect(Object.keys(agents).length).toBe(24)
    expect(agents['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/84.0.4147.135 Safari/537.36']).toBe(31)
    expect(agents['-']).toBe(22)
  })

  it('counts a real Apache combined log day by day, and the analytics read it back', async () => {
    await register(LOG_VIEWER)
    expect(await importFile(context(LOG_VIEWER), await state(), createBudget(1 << 30, 60))).toEqual({ done: true })
    expect(await sums('status_class')).toEqual({ '2xx': 4, '4xx': 3, '5xx': 3 })
    expect(await sums('method')).toEqual({ GET: 5, POST: 5 })
    expect(Object.keys(await sums('day')).length).toBe(10)
    // The analytics over the 90 days ending on the last line's day (2023-08-03) see the five lines since May 6.
    const analytics = await accessAnalytics(m.scope, 90, new Date('2023-08-03T20:00:00Z'))
    expect(analytics).toEqual({
      window_days: 90,
      total: 5,
      unique_paths: 5,
      error_rate: 0.8,
      status_classes: [
        { class: '2xx', count: 1 },
        { class: '4xx', count: 2 },
        { class: '5xx', count: 2 },
      ],
      by_day: [
        { day: '2023-05-07', count: 1, errors: 1 },
        { day: '2023-05-16', count: 1, errors: 1 },
        { day: '2023-06-08', count: 1, errors: 1 },
        { day: '2023-07-15', count: 1, errors: 0 },
        { day: '2023-08-03', count: 1, errors: 1 },
      ],
      top_paths: [
        { path: '/app', count: 1, errors: 1 },
        { path: '/blog/wp-content/main', count: 1, errors: 1 },
        { path: '/explore/search', count: 1, errors: 0 },
        { path: '/main', count: 1, errors: 1 },
        { path: '/wp-content/wp-content/search', count: 1, errors: 1 },
      ],
      error_paths: [
        { path: '/app', errors: 1 },
        { path: '/blog/wp-content/main', errors: 1 },
        { path: '/main', errors: 1 },
        { path: '/wp-content/wp-content/search', errors: 1 },
      ],
      methods: [
        { method: 'POST', count: 3 },
        { method: 'GET', count: 2 },
      ],
      top_agents: [
        { agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_12_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/58.0.3029.110 Safari/537.36', count: 1 },
        { agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_12_5) AppleWebKit/603.2.4 (KHTML, like Gecko) Version/10.1.1 Safari/603.2.4', count: 2 },
        { agent: 'Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; AS; rv:11.0) like Gecko', count: 2 },
      ].sort((a, b) => b.count - a.count || (a.agent < b.agent ? -1 : 1)),
    })
    // The plugin's maintenance drops what no window can read: days before the 90 days ending "now".
    await accessAnalyticsPlugin.hooks!.maintain!({ scope: m.scope, now: new Date('2023-08-03T20:00:00Z'), services: {} as never, plugins: [] })
    expect(await sums('day')).toEqual({ '2023-05-07': 1, '2023-05-16': 1, '2023-06-08': 1, '2023-07-15': 1, '2023-08-03': 1 })
    expect((await accessAnalytics(m.scope, 90, new Date('2023-08-03T20:00:00Z'))).total).toBe(5)
  })

  for (const afterCommit of [false, true]) {
    it(`counts each line once when a batch fails ${afterCommit ? 'after' : 'before'} it committed and the import resumes`, async () => {
      const bytes = encode(accessLines(3000)) // 1,000 lines kept (404, 500): ten 100-event batches
      await register(bytes)
      m.driver.failBatch(4, afterCommit)
      await expect(importFile(context(bytes, 100), await state(), createBudget(1 << 30, 60))).rejects.toThrow(/connection lost/)
      const checkpoint = (await state()).next_offset
      const covered = { bytes: 0, lines: 0 }
      for (const line of accessLines(3000).split('\n')) {
        if (covered.bytes + line.length + 1 > checkpoint) break
        covered.bytes += line.length + 1
        covered.lines++
      }
      expect(covered.bytes).toBe(checkpoint)
      // Exactly the lines before the committed checkpoint are counted — filtered-out ones included.
      expect(await total()).toBe(covered.lines)
      expect(covered.lines).toBeGreaterThan(afterCommit ? 1000 : 700)
      expect(await importFile(context(bytes, 100), await state(), createBudget(1 << 30, 60))).toEqual({ done: true })
      expect(await total()).toBe(3000)
      expect(await sums('status_class')).toEqual({ '2xx': 1500, '3xx': 500, '4xx': 500, '5xx': 500 })
      expect(await sums('method')).toEqual({ GET: 2250, POST: 750 })
      expect(Object.keys(await sums('item'))).toHaveLength(7)
      expect(await sums('item', 'a')).toEqual({ 'agent-0': 1000, 'agent-1': 1000, 'agent-2': 1000 })
    })
  }

  it('drops a file`s counts when it is read again from byte 0 (reindex, new allow-list): never doubled', async () => {
    const bytes = encode(accessLines(600))
    await register(bytes)
    expect(await importFile(context(bytes), await state(), createBudget(1 << 30, 60))).toEqual({ done: true })
    expect(await total()).toBe(600)
    // What reindex does: the file's import version is reset, so the next import clears and re-reads it.
    await m.scope.db.execute({ sql: `UPDATE ${m.scope.t.sourceFiles} SET parser_version = 0` })
    expect(await importFile(context(bytes), await state(), createBudget(1 << 30, 60))).toEqual({ done: true })
    expect(await total()).toBe(600)
    expect(await sums('status_class')).toEqual({ '2xx': 300, '3xx': 100, '4xx': 100, '5xx': 100 })
    expect(await occurrences()).toBe(200)
  })

  it('keeps NUL and U+E000 in paths and agents apart and exact (the neon driver escapes one with the other)', async () => {
    const bytes = encode(
      [
        '1.2.3.4 - - [01/Feb/2026:10:00:00 +0000] "GET /a\u0000b HTTP/1.1" 404 0 "-" "nul\u0000agent"',
        '1.2.3.4 - - [01/Feb/2026:10:00:01 +0000] "GET /a\ue000b HTTP/1.1" 404 0 "-" "nul\ue000agent"',
        '1.2.3.4 - - [01/Feb/2026:10:00:02 +0000] "GET /a\u0000b HTTP/1.1" 200 0 "-" "nul\u0000agent"',
        '',
      ].join('\n'),
    )
    await register(bytes)
    expect(await importFile(context(bytes), await state(), createBudget(1 << 30, 60))).toEqual({ done: true })
    expect(await sums('item')).toEqual({ '/a\u0000b': 2, '/a\ue000b': 1 })
    expect(await sums('item', 'a')).toEqual({ 'nul\u0000agent': 2, 'nul\ue000agent': 1 })
  })

  it('caps distinct paths and agents per day, counting the rest under (other), and cuts long values', async () => {
    const lines: string[] = []
    const extra = 30
    for (let i = 0; i < PATHS_PER_DAY + extra; i++) {
      lines.push(`1.2.3.4 - - [01/Feb/2026:10:00:00 +0000] "GET /spray/${i}${i === 0 ? 'x'.repeat(ITEM_CHARS * 2) : ''} HTTP/1.1" 404 0 "-" "bot-${i % (AGENTS_PER_DAY + 10)}"`)
    }
    // An already-seen path after the cap keeps its own row.
    lines.push(`1.2.3.4 - - [01/Feb/2026:10:00:01 +0000] "GET /spray/1 HTTP/1.1" 200 0 "-" "bot-1"`)
    // Another day has a fresh allowance.
    lines.push(`1.2.3.4 - - [02/Feb/2026:10:00:00 +0000] "GET /spray/${PATHS_PER_DAY + 5} HTTP/1.1" 200 0 "-" "bot-1"`)
    // Made-up methods (nginx logs any upper-case token) are capped the same way.
    for (let i = 0; i < METHODS_PER_DAY + 5; i++) lines.push(`1.2.3.4 - - [03/Feb/2026:10:00:00 +0000] "X${String.fromCharCode(65 + i)} /m HTTP/1.1" 400 0 "-" "-"`)
    const bytes = encode(`${lines.join('\n')}\n`)
    await register(bytes)
    expect(await importFile(context(bytes), await state(), createBudget(1 << 30, 60))).toEqual({ done: true })
    const methods = await m.rows<{ method: string; n: number }>(`SELECT method, SUM(count) AS n FROM ${m.scope.t.accessRollup} WHERE kind = 'p' AND day = '2026-02-03' GROUP BY method`)
    expect(methods).toHaveLength(METHODS_PER_DAY + 1)
    expect(Number(methods.find((row) => row.method === OVERFLOW_ITEM)!.n)).toBe(5)
    const rows = await m.rows<{ day: string; item: string; n: number }>(`SELECT day, item, SUM(count) AS n FROM ${m.scope.t.accessRollup} WHERE kind = 'p' GROUP BY day, item`)
    const first = rows.filter((row) => row.day === '2026-02-01')
    expect(first).toHaveLength(PATHS_PER_DAY + 1)
    expect(Number(first.find((row) => row.item === OVERFLOW_ITEM)!.n)).toBe(extra)
    expect(Number(first.find((row) => row.item === '/spray/1')!.n)).toBe(2)
    expect(first.find((row) => row.item.startsWith('/spray/0'))!.item).toBe(`/spray/0${'x'.repeat(ITEM_CHARS - 8)}`)
    expect(rows.filter((row) => row.day === '2026-02-02').map((row) => row.item)).toEqual([`/spray/${PATHS_PER_DAY + 5}`])
    const agents = await m.rows<{ item: string; n: number }>(`SELECT item, SUM(count) AS n FROM ${m.scope.t.accessRollup} WHERE kind = 'a' AND day = '2026-02-01' GROUP BY item`)
    expect(agents).toHaveLength(AGENTS_PER_DAY + 1)
    expect(await total()).toBe(PATHS_PER_DAY + extra + 2 + METHODS_PER_DAY + 5)
  })
})
