import type { Driver } from '../../../../drivers/index.ts'
import { applyMigrations, readMigrationState } from '../../../../drivers/migrate.ts'
import { MIGRATIONS } from '../../../../drivers/migrations/index.ts'
import type { AppScope } from '../../../../worker/apps/app-scope.ts'
import { tablesFor } from '../../../../worker/apps/tables.ts'
import type { DriverTarget } from '../../../setup/driver-targets.ts'
import { openDriver, type OpenedDriver } from '../../../drivers/driver-targets.ts'
import { wrapDriver } from '../../../../drivers/wrap-driver.ts'

/** A driver wrapper whose `batch` can be made to fail, before or after the batch commits. */
export interface FaultyDriver extends Driver {
  /** Fail the `n`-th batch from now on (1 = the next one); `afterCommit` runs it first, then throws. */
  failBatch(n: number, afterCommit: boolean): void
}

export interface MigratedScope {
  readonly scope: AppScope
  /** The namespace's table prefix (what migrations' `statements(prefix)` take). */
  readonly prefix: string
  readonly opened: OpenedDriver
  readonly driver: FaultyDriver
  rows<T = Record<string, unknown>>(sql: string, args?: (string | number | null)[]): Promise<T[]>
  close(): Promise<void>
}

/**
 * A freshly migrated application namespace on one driver target (the conformance suite's targets), for
 * Node-side tests of the persistence layer against every engine.
 */
export async function migratedScope(target: DriverTarget, label: string): Promise<MigratedScope> {
  const opened = await openDriver(target)
  const inner = opened.driver
  const prefix = `${label}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}_`
  await readMigrationState(inner)
  await applyMigrations(inner, prefix.slice(0, -1), prefix, MIGRATIONS[inner.dialect.name].application, 0, '2026-01-01 00:00:00')
  let countdown = 0
  let afterCommit = false
  const driver: FaultyDriver = {
    ...wrapDriver(inner, async (call, proceed) => {
      if (call.kind !== 'batch' || countdown === 0 || --countdown > 0) return proceed()
      if (afterCommit) await proceed()
      throw new Error(afterCommit ? 'connection lost after commit' : 'connection lost')
    }),
    failBatch(n, commit) {
      countdown = n
      afterCommit = commit
    },
  }
  const scope: AppScope = { app: { id: label, name: label, namespace: 1, created_at: '2026-01-01 00:00:00' }, db: driver, t: tablesFor(prefix, inner.dialect) }
  return {
    scope,
    prefix,
    opened,
    driver,
    rows: async (sql, args = []) => (await inner.execute({ sql, args })).rows as never,
    close: () => opened.close(),
  }
}
