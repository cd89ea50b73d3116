import type { Driver } from '../../drivers/driver.ts'
import type { DatabaseStats } from './database-stats.ts'

/** Wraps a driver so the time spent in each call is added to `stats` (round trips are counted by the driver). */
export function instrument(driver: Driver, stats: DatabaseStats): Driver {
  const timed = async <T>(work: () => Promise<T>): Promise<T> => {
    const started = Date.now()
    try {
      return await work()
    } finally {
      stats.milliseconds += Date.now() - started
    }
  }
  return {
    name: driver.name,
    dialect: driver.dialect,
    execute: (statement) => timed(() => driver.execute(statement)),
    batch: (statements, options) => timed(() => driver.batch(statements, options)),
    version: () => timed(() => driver.version()),
  }
}
