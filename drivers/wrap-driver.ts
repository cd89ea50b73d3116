import type { BatchOptions, Driver, Statement } from './driver.ts'

/** One call reaching a driver: what it runs. `version` carries no statements. */
export interface DriverCall {
  readonly kind: 'execute' | 'batch' | 'version'
  readonly statements: readonly Statement[]
  readonly options?: BatchOptions
}

/** Runs around each call: may look at it, time it, delay it, fail it, or call `proceed` (once) to run it. */
export type AroundCall = <T>(call: DriverCall, proceed: () => Promise<T>) => Promise<T>

/**
 * A driver whose every call goes through `around` — the one wrapper for request instrumentation
 * (worker/db/instrument.ts) and for tests that watch, stall or fail database calls.
 *
 * @example
 * const timed = wrapDriver(db, async (call, proceed) => { const t = Date.now(); try { return await proceed() } finally { log(call.kind, Date.now() - t) } })
 */
export function wrapDriver(driver: Driver, around: AroundCall): Driver {
  return {
    name: driver.name,
    dialect: driver.dialect,
    version: () => around({ kind: 'version', statements: [] }, () => driver.version()),
    execute: (statement) => around({ kind: 'execute', statements: [statement] }, () => driver.execute(statement)),
    batch: (statements, options) => around({ kind: 'batch', statements, options }, () => driver.batch(statements, options)),
  }
}
