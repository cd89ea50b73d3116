import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Driver } from '../../../drivers/index.ts'
import { ApplicationRegistry } from '../../../worker/apps/registry.ts'
import type { DatabaseHandle } from '../../../worker/db/request-databases.ts'
import { openDriver, type OpenedDriver } from '../../drivers/driver-targets.ts'
import { wrapDriver, type DriverCall } from '../../../drivers/wrap-driver.ts'

/**
 * The registry is shared by every request of an isolate. A request that stalls (or is cancelled by workerd
 * when its client goes away) in the middle of a cold read must not hold the others up: each of them reads for
 * itself rather than awaiting the stalled request's promise, which in workerd may never settle.
 */
describe('ApplicationRegistry (per-isolate cache)', () => {
  let opened: OpenedDriver
  beforeAll(async () => {
    opened = await openDriver('d1')
  })
  afterAll(() => opened.close())

  /**
   * A handle on the real database whose statements first pass through `fault`: it may let a statement run,
   * hang it forever ('stall'), or fail it ('fail').
   */
  function handle(key: string, fault: () => 'run' | 'stall' | 'fail'): DatabaseHandle {
    const inner = opened.driver
    const db: Driver = wrapDriver(inner, <T,>(call: DriverCall, proceed: () => Promise<T>): Promise<T> => {
      if (call.kind === 'version') return proceed()
      const mode = fault()
      if (mode === 'stall') return new Promise<T>(() => {})
      if (mode === 'fail') return Promise.reject(new Error('database unreachable'))
      return proceed()
    })
    return { db, key, dedicated: false }
  }

  it('serves a second cold request while the first one is stuck on its read', async () => {
    const registry = new ApplicationRegistry()
    let stalled = false
    const main = handle('d1:registry-test', () => (stalled ? 'run' : ((stalled = true), 'stall')))
    void registry.list(main, new Date()) // stalls on its first statement, forever
    const apps = await Promise.race([
      registry.list(main, new Date()),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the second request waited on the first')), 5000)),
    ])
    expect(apps.map((app) => app.id)).toEqual(['default'])
    // Settled results are cached: a warm call makes no statement at all.
    const before = opened.roundTrips()
    expect((await registry.list(main, new Date())).map((app) => app.id)).toEqual(['default'])
    expect(opened.roundTrips()).toBe(before)
  })

  it('caches nothing from a failed read, so the next call retries', async () => {
    const registry = new ApplicationRegistry()
    let fail = true
    const main = handle('d1:registry-retry', () => (fail ? 'fail' : 'run'))
    await expect(registry.list(main, new Date())).rejects.toThrow('database unreachable')
    fail = false
    expect((await registry.list(main, new Date())).map((app) => app.id)).toEqual(['default'])
  })
})
