/**
 * startWorker (tools/worker-process.ts) under a taken port: freePort() only probes, so another process can
 * bind the port before wrangler does. A CI run lost the axe-helper file to that race ("Address already in
 * use"); the start now retries on fresh ports, and still reports every other failure at once.
 */
import { createServer, type Server } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../../tools/free-port.ts'
import { startWorker, type RunningWorker } from '../../tools/worker-process.ts'

let holder: Server | undefined
let worker: RunningWorker | undefined

afterAll(async () => {
  await worker?.stop()
  await new Promise((resolve) => (holder ? holder.close(resolve) : resolve(undefined)))
})

function holdPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    // Accepts and drops every connection, as a port held by something that is not our worker.
    const server = createServer((socket) => socket.destroy())
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }))
  })
}

describe('startWorker', { timeout: 180_000 }, () => {
  it('starts on a fresh port when the first one it picked was taken in the meantime', async () => {
    const taken = await holdPort()
    holder = taken.server
    const picked: number[] = []
    worker = await startWorker({}, 'local-start', {
      pickPort: async () => {
        const port = picked.length === 0 ? taken.port : await freePort()
        picked.push(port)
        return port
      },
    })
    expect(picked.length).toBe(2)
    expect(picked[0]).toBe(taken.port)
    expect(worker.url).toBe(`http://127.0.0.1:${picked[1]}`)
    const health = await fetch(`${worker.url}/?api=health`)
    expect(health.status).toBe(200)
  })

  it('gives up after four taken ports, naming the cause', async () => {
    const taken = holder ? (holder.address() as { port: number }).port : (await holdPort()).port
    let tries = 0
    const failure = await startWorker({}, 'local-start-taken', {
      pickPort: async () => {
        tries++
        return taken
      },
    }).then(
      async (started) => {
        await started.stop()
        return null
      },
      (error: unknown) => error as Error,
    )
    expect(failure).toBeInstanceOf(Error)
    expect(failure!.message).toContain('Address already in use')
    expect(tries).toBe(4)
  })
})
