import { inject } from 'vitest'
import { Miniflare } from 'miniflare'
import { createDriver, type Driver, type DriverOptions } from '../../drivers/index.ts'
import type { D1Like } from '../../drivers/d1.ts'
import { selectedDrivers, type DriverTarget } from '../setup/driver-targets.ts'

export interface OpenedDriver {
  readonly driver: Driver
  /** Round trips made so far through this driver. */
  roundTrips(): number
  close(): Promise<void>
}

/**
 * Opens one driver per selected target from Node, through the same factory the worker uses: D1 via
 * miniflare's local D1, the others via the local protocol servers the global setup started.
 */
export async function openDriver(target: DriverTarget, options: DriverOptions = {}): Promise<OpenedDriver> {
  let count = 0
  const observe = () => count++
  if (target === 'd1') {
    const mf = new Miniflare({ modules: true, script: 'export default { fetch: () => new Response() }', d1Databases: ['DB'] })
    const binding = (await mf.getD1Database('DB')) as unknown as D1Like
    return { driver: createDriver({ driver: 'd1', binding }, observe, options), roundTrips: () => count, close: () => mf.dispose() }
  }
  const connections = inject('driverConnections')
  const driver =
    target === 'libsql'
      ? createDriver({ driver: 'libsql', url: connections.libsqlUrl! }, observe, options)
      : target === 'neon'
        ? createDriver({ driver: 'neon', url: connections.neonUrl!, endpoint: connections.neonEndpoint! }, observe, options)
        : createDriver({ driver: 'planetscale', url: connections.planetscaleUrl! }, observe, options)
  return { driver, roundTrips: () => count, close: async () => {} }
}

export const TARGETS = selectedDrivers()
