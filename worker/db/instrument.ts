import type { Driver } from '../../drivers/driver.ts'
import { wrapDriver } from '../../drivers/wrap-driver.ts'
import type { DatabaseStats } from './database-stats.ts'

/** Wraps a driver so the time spent in each call is added to `stats` (round trips are counted by the driver). */
export function instrument(driver: Driver, stats: DatabaseStats): Driver {
  return wrapDriver(driver, async (_call, proceed) => {
    const started = Date.now()
    try {
      return await proceed()
    } finally {
      stats.milliseconds += Date.now() - started
    }
  })
}
