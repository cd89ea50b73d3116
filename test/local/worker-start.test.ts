/**
 * startWorker (tools/worker-process.ts) under a taken port: freePort() only probes, so another process can
 * bind the port before wrangler does. A CI run lost the axe-helper file to that race ("Address already in
 * use"); the start now retries on fresh ports, and still reports every other failure at once.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../../tools/free-port.ts'
import { startWorker, type RunningWorker } from '../../tools/worker-process.ts'
import { holdPort, type HeldPort } from '../tools/port-holder.ts'

let held: HeldPort | undefined
let worker: RunningWorker | undefined

afterAll(async () => {
  await worker?.stop()
  await held?.release()
})

describe('startWorker', { timeout: 180_000 }, () => {
  it('starts on a fresh port when the first one it picked was taken in the meantime', async () => {
    const taken = (held = await holdPort())
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
    const taken = (held ??= await holdPort()).port
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
