import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createDriver } from '../../drivers/index.ts'
import { startFaultProxy, type FaultProxy } from '../../tools/fault-proxy.ts'
import { TARGETS } from './driver-targets.ts'

/**
 * Issue 10 defect 9: `neonConfig.fetchEndpoint` is process-global in `@neondatabase/serverless`, and the
 * driver used to set it whenever one was created — so after a second Neon target was created, the first
 * one's requests went to the second one's endpoint. Each target's requests must reach its own endpoint.
 * Two pass-through proxies in front of the local Neon server are the two endpoints; their byte counts
 * show where each request went.
 */
describe.each(TARGETS.filter((target) => target === 'neon'))('%s endpoints per target', () => {
  let first: FaultProxy
  let second: FaultProxy
  beforeAll(async () => {
    const server = new URL(inject('driverConnections').neonEndpoint!)
    const target = { host: server.hostname, port: Number(server.port) }
    first = await startFaultProxy({ target })
    second = await startFaultProxy({ target })
  })
  afterAll(async () => {
    await first.close()
    await second.close()
  })

  it('sends each driver\'s requests to its own endpoint, whichever was created last', async () => {
    const url = inject('driverConnections').neonUrl!
    const endpoint = (proxy: FaultProxy) => `http://${proxy.host}:${proxy.port}/sql`
    const a = createDriver({ driver: 'neon', url, endpoint: endpoint(first) })
    const b = createDriver({ driver: 'neon', url, endpoint: endpoint(second) })
    first.resetStats()
    second.resetStats()
    expect((await a.execute({ sql: 'SELECT 1 AS one' })).rows).toEqual([{ one: 1 }])
    expect(await a.batch([{ sql: 'SELECT 2 AS two' }, { sql: 'SELECT 3 AS three' }])).toHaveLength(2)
    expect(first.stats().bytesUp).toBeGreaterThan(0)
    expect(second.stats().bytesUp).toBe(0)
    const sentToFirst = first.stats().bytesUp
    expect((await b.execute({ sql: 'SELECT 4 AS four' })).rows).toEqual([{ four: 4 }])
    expect(second.stats().bytesUp).toBeGreaterThan(0)
    expect(first.stats().bytesUp).toBe(sentToFirst)
    // Created after both, a third driver changes nothing for the first two.
    createDriver({ driver: 'neon', url, endpoint: 'http://127.0.0.1:9/sql' })
    await a.execute({ sql: 'SELECT 5 AS five' })
    expect(first.stats().bytesUp).toBeGreaterThan(sentToFirst)
  })
})
