/**
 * Servers on probed ports (tools/free-port.ts): a port can be taken between freePort()'s probe and the
 * server's bind — a CI run lost a dashboard test file to wrangler's "Address already in use". Both the worker
 * (test/local/worker-start.test.ts) and Debian's nginx retry on a fresh port; nothing else is retried.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { freePort, onFreePort, PORT_ATTEMPTS } from '../../tools/free-port.ts'
import { startNginx, type NginxServer } from '../../tools/servers/nginx.ts'
import { holdPort, type HeldPort } from './port-holder.ts'

let held: HeldPort | undefined
let nginx: NginxServer | undefined

afterAll(async () => {
  await nginx?.close()
  await held?.release()
})

describe('onFreePort', () => {
  it('retries a start that found its port taken, on a fresh port, and gives up after PORT_ATTEMPTS', async () => {
    const ports: number[] = []
    const result = await onFreePort(async (port) => {
      ports.push(port)
      if (ports.length < 3) throw new Error(`bind() to 127.0.0.1:${port} failed (98: Address already in use)`)
      return `started on ${port}`
    })
    expect(ports.length).toBe(3)
    expect(new Set(ports).size).toBe(3)
    expect(result).toBe(`started on ${ports[2]}`)

    let tries = 0
    const failure = await onFreePort(async () => {
      tries++
      throw Object.assign(new Error('listen EADDRINUSE: address already in use'), { code: 'EADDRINUSE' })
    }).catch((error: Error) => error)
    expect(failure.message).toContain('EADDRINUSE')
    expect(tries).toBe(PORT_ATTEMPTS)
  })

  it('throws any other failure at once', async () => {
    let tries = 0
    const failure = await onFreePort(async () => {
      tries++
      throw new Error('nginx exited (1): unknown directive')
    }).catch((error: Error) => error)
    expect(failure.message).toBe('nginx exited (1): unknown directive')
    expect(tries).toBe(1)
  })
})

describe('startNginx', () => {
  it('answers on a fresh port when the first one it was given is held by another process', async () => {
    const taken = (held = await holdPort()).port
    const given: number[] = []
    nginx = await startNginx(async () => {
      const port = given.length === 0 ? taken : await freePort()
      given.push(port)
      return port
    })
    expect(given).toEqual([taken, expect.any(Number)])
    expect(nginx.url).toBe(`http://127.0.0.1:${given[1]}`)
    const response = await fetch(`${nginx.url}/redirect/x.log`, { redirect: 'manual' })
    expect(response.status).toBe(302)
    expect(response.headers.get('server')).toMatch(/^nginx/)
  })
})
