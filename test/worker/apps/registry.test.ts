import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Driver } from '../../../drivers/index.ts'
import { ApplicationRegistry } from '../../../worker/apps/registry.ts'
import type { DatabaseHandle } from '../../../worker/db/request-databases.ts'
import { openDriver, type OpenedDriver } from '../../drivers/driver-targets.ts'

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

  /** A handle on the real database whose next statement hangs forever when `stall` is set. */
  function handle(stall: { next: boolean }): DatabaseHandle {
    const inner = opened.driver
    const gate = <T>(run: () => Promise<T>): Promise<T> => {
      if (!stall.next) return run()
      stall.next = false
      return new Promise<T>(() => {})
    }
    const db: Driver = {
      name: inner.name,
      dialect: inner.dialect,
      version: () => inner.version(),
      execute: (statement) => gate(() => inner.execute(statement)),
      batch: (statements, options) => gate(() => inner.batch(statements, options)),
    }
    return { db, key: 'd1:registry-test', dedicated: false }
  }

  it('serves a second cold request while the first one is stuck on its read', async () => {
    const registry = new ApplicationRegistry()
    const stall = { next: true }
    const main = handle(stall)
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
    const inner = opened.driver
    let fail = true
    const db: Driver = {
      ...inner,
      name: inner.name,
      dialect: inner.dialect,
      version: () => inner.version(),
      execute: (statement) => (fail ? Promise.reject(new Error('database unreachable')) : inner.execute(statement)),
      batch: (statements, options) => (fail ? Promise.reject(new Error('database unreachable')) : inner.batch(statements, options)),
    }
    const main: DatabaseHandle = { db, key: 'd1:registry-retry', dedicated: false }
    await expect(registry.list(main, new Date())).rejects.toThrow('database unreachable')
    fail = false
    expect((await registry.list(main, new Date())).map((app) => app.id)).toEqual(['default'])
  })
})
