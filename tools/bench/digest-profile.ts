/**
 * `npx tsx tools/bench/digest-profile.ts [--scale FILES] [--drop index,index] [--top N] [--keep FILE] [--cache-mb N]
 * [--engine sqlite|d1]` — where an import's
 * time goes (issue 11). Runs the worker's own digest (`importFile`) in this Node process against SQLite through
 * the `libsql` package (the engine the libsql leg runs; D1 is the same SQLite inside workerd), and times every
 * statement the digest sends with CPU time, so the split between SQL and JavaScript holds on a loaded machine
 * (wall-clock figures belong to `npm run bench`, which runs the real worker).
 *
 * Default corpus: the bench's throughput file (100,000 events over 2,000 issues, seed 9). `--scale FILES`:
 * that many files of the bench's scale corpus instead (50,000 events each, 10 events per issue over all files,
 * seeds 100 + i), imported one after the other as `--scale` uploads them. `--drop` removes indexes after the
 * migrations (unprefixed names, e.g. `groups_status_count`), to price each one. `--keep FILE` copies the
 * imported database (tables prefixed `p_`) to FILE, to time reads against it (`sqlite3 FILE`). `--cache-mb N`
 * sets SQLite's page cache. `--engine d1` runs the same import against D1 as `wrangler dev` runs it
 * (miniflare), timing each D1 call in wall time.
 */
import { createRequire } from 'node:module'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { sqliteDialect } from '../../drivers/dialect/sqlite.ts'
import type { Driver, QueryResult, Row, Statement } from '../../drivers/driver.ts'
import { applyMigrations, readMigrationState } from '../../drivers/migrate.ts'
import { MIGRATIONS } from '../../drivers/migrations/index.ts'
import { tablesFor } from '../../worker/apps/tables.ts'
import type { AppScope } from '../../worker/apps/app-scope.ts'
import { importFile } from '../../worker/digest/digest-file.ts'
import { createBudget, type ImportContext } from '../../worker/jobs/import-context.ts'
import { importLimits } from '../../worker/jobs/import-limits.ts'
import { emptyResult } from '../../worker/jobs/import-result.ts'
import { selectFileStates, toFileState } from '../../worker/jobs/file-state.ts'
import { importVersion } from '../../worker/settings/ingestion-settings.ts'
import { parseConfig } from '../../worker/config.ts'
import { SEVERITIES } from '../../shared/constants.ts'
import type { LogStore } from '../../worker/intake/log-store.ts'
import { generateLaravelLog } from './log-generator.ts'
import { createD1Driver, type D1Like } from '../../drivers/d1.ts'
import { Miniflare } from 'miniflare'
import { wrapDriver } from '../../drivers/wrap-driver.ts'

const { values } = parseArgs({ options: { scale: { type: 'string' }, drop: { type: 'string' }, top: { type: 'string', default: '14' }, keep: { type: 'string' }, engine: { type: 'string', default: 'sqlite' }, 'cache-mb': { type: 'string' } } })

const PREFIX = 'p_'
type Database = {
  prepare(sql: string): { reader: boolean; all(args: unknown[]): Row[]; run(args: unknown[]): { changes: number; lastInsertRowid: number | bigint } }
  exec(sql: string): void
  close(): void
}

/** Per statement shape: CPU microseconds and calls. */
const profile = new Map<string, { cpu: number; calls: number }>()
let sqlCpu = 0

function record(sql: string, spent: number): void {
  sqlCpu += spent
  const key = sql.replace(/\s+/g, ' ').replaceAll(`"${PREFIX}`, '"').slice(0, 110)
  const entry = profile.get(key) ?? { cpu: 0, calls: 0 }
  entry.cpu += spent
  entry.calls += 1
  profile.set(key, entry)
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage()
  return user + system
}

/** The Driver contract over one in-process SQLite connection; a batch is one transaction, as on D1. */
function sqliteDriver(db: Database): Driver {
  const cache = new Map<string, ReturnType<Database['prepare']>>()
  /** BEGIN/COMMIT are SQL time too (COMMIT writes the WAL). */
  const exec = (command: string) => {
    const started = cpuMicros()
    db.exec(command)
    record(command, cpuMicros() - started)
  }
  const run = (statement: Statement): QueryResult => {
    const started = cpuMicros()
    let prepared = cache.get(statement.sql)
    if (!prepared) cache.set(statement.sql, (prepared = db.prepare(statement.sql)))
    const args = (statement.args ?? []).map((value) => (typeof value === 'boolean' ? Number(value) : value))
    const result: QueryResult = prepared.reader ? { rows: prepared.all(args), rowsAffected: 0 } : { rows: [], rowsAffected: prepared.run(args).changes }
    record(statement.sql, cpuMicros() - started)
    return result
  }
  return {
    name: 'libsql',
    dialect: sqliteDialect,
    version: async () => 'SQLite',
    execute: async (statement) => run(statement) as never,
    batch: async (statements) => {
      exec('BEGIN IMMEDIATE')
      try {
        const results = statements.map(run)
        exec('COMMIT')
        return results
      } catch (error) {
        exec('ROLLBACK')
        throw error
      }
    },
  }
}

/** A driver whose calls are recorded in wall time (they run in workerd), a batch under its first write. */
function timedDriver(inner: Driver): Driver {
  return wrapDriver(inner, async (call, proceed) => {
    const started = performance.now()
    try {
      return await proceed()
    } finally {
      const first = call.statements.find((statement) => !/^\s*SELECT/i.test(statement.sql)) ?? call.statements[0]
      record(call.kind === 'batch' ? `batch of ${call.statements.length}: ${first?.sql ?? ''}` : (first?.sql ?? call.kind), (performance.now() - started) * 1000)
    }
  })
}

function memoryStore(objects: Map<string, Uint8Array>): LogStore {
  return {
    read: async (key, offset, length) => objects.get(key)?.slice(offset, offset + length) ?? null,
  } as LogStore
}

async function main(): Promise<void> {
  const require = createRequire(import.meta.url)
  const Database = require('libsql') as new (path: string) => Database
  const dir = mkdtempSync(join(tmpdir(), 'digest-profile-'))
  const db = new Database(join(dir, 'profile.sqlite'))
  db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;')
  if (values['cache-mb']) db.exec(`PRAGMA cache_size = -${Number(values['cache-mb']) * 1024}`)
  // `--engine d1`: the same import against D1 as `wrangler dev` runs it (miniflare, workerd's SQLite), in wall
  // time only — the statements run in workerd, out of this process's CPU accounting.
  const mf = values.engine === 'd1'
    ? new Miniflare({ modules: true, script: 'export default { fetch() { return new Response(null) } }', compatibilityDate: '2026-04-26', d1Databases: { DB: 'profile' }, d1Persist: join(dir, 'd1') })
    : null
  const driver = mf ? timedDriver(createD1Driver((await mf.getD1Database('DB')) as unknown as D1Like)) : sqliteDriver(db)
  await readMigrationState(driver)
  await applyMigrations(driver, 'profile', PREFIX, MIGRATIONS.sqlite.application, 0, '2026-01-01 00:00:00')
  for (const index of (values.drop ?? '').split(',').filter(Boolean)) await driver.execute({ sql: `DROP INDEX "${PREFIX}${index}"` })
  const scope: AppScope = { app: { id: 'profile', name: 'profile', namespace: 1, created_at: '2026-01-01 00:00:00' }, db: driver, t: tablesFor(PREFIX, sqliteDialect) }

  const scaleFiles = values.scale === undefined ? 0 : Number(values.scale)
  const files: { key: string; bytes: Uint8Array }[] = scaleFiles === 0
    ? [{ key: 'checkout/laravel.log', bytes: generateLaravelLog({ events: 100_000, issues: 2000, offset: 1000, seed: 9 }) }]
    : Array.from({ length: scaleFiles }, (_, i) => ({ key: `scale/part-${i}-laravel.log`, bytes: generateLaravelLog({ events: 50_000, issues: (20 * 50_000) / 10, seed: 100 + i }) }))
  const objects = new Map(files.map((file) => [file.key, file.bytes]))
  const severities = [...SEVERITIES]
  const version = importVersion(severities)
  const config = parseConfig({})
  profile.clear()
  sqlCpu = 0
  const cpu0 = cpuMicros()
  const wall0 = performance.now()
  let events = 0
  for (const file of files) {
    await driver.batch([
      { sql: `INSERT INTO ${scope.t.sourceFiles} (path, size, created_at, parser_version, log_type, channel) VALUES (?, ?, '2026-01-01 00:00:00', ?, 'laravel', 'laravel.log')`, args: [file.key, file.bytes.length, version] },
      { sql: `INSERT INTO ${scope.t.fileImports} (source_file_id, parser_id, updated_at) SELECT id, 'laravel', '2026-01-01 00:00:00' FROM ${scope.t.sourceFiles} WHERE path = ?`, args: [file.key] },
    ])
    const { rows } = await driver.execute(selectFileStates(scope, 's.path = ?', [file.key]))
    const ctx: ImportContext = {
      scope,
      logs: memoryStore(objects),
      now: () => new Date(),
      severities,
      allowed: new Set(severities),
      version,
      limits: importLimits({ config }),
      result: emptyResult(severities),
      touched: new Set(),
      alreadyIngested: [],
      failures: new Map(),
      pluginSettings: null,
      progress: async () => {},
    }
    await importFile(ctx, toFileState(rows[0]!), createBudget(1 << 30, 3600))
    events += ctx.result.events
  }
  const cpu = cpuMicros() - cpu0
  const wall = performance.now() - wall0
  const issues = (await driver.execute<{ n: number }>({ sql: `SELECT COUNT(*) AS n FROM "${PREFIX}error_groups"` })).rows[0]!.n
  console.log(`imported ${events.toLocaleString('en')} events over ${Number(issues).toLocaleString('en')} issues: ${Math.round(events / (wall / 1000)).toLocaleString('en')} events/s wall, ${Math.round(events / (cpu / 1e6)).toLocaleString('en')} events/s of CPU`)
  // Under `--engine d1` the statements' times are wall time in workerd: no SQL/JavaScript split of this process's CPU.
  if (mf) console.log(`wall per 1,000 events in D1 calls: ${(sqlCpu / events).toFixed(1)} ms; this process's CPU: ${(cpu / events).toFixed(1)} ms`)
  else console.log(`CPU per 1,000 events: ${(cpu / events).toFixed(1)} ms — SQL ${(sqlCpu / events).toFixed(1)} ms, JavaScript and the rest ${((cpu - sqlCpu) / events).toFixed(1)} ms`)
  const rows = [...profile.entries()].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, Number(values.top))
  for (const [key, { cpu: spent, calls }] of rows) console.log(`${(spent / events).toFixed(2).padStart(6)} ms/1k ${String(calls).padStart(5)}× ${key}`)
  await mf?.dispose()
  if (values.keep && !mf) db.exec(`VACUUM INTO '${values.keep.replaceAll("'", "''")}'`)
  db.close()
  rmSync(dir, { recursive: true, force: true })
}

await main()
