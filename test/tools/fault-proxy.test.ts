import { once } from 'node:events'
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startFaultProxy, type FaultProxy } from '../../tools/fault-proxy.ts'

/** A client through the proxy to an echo server, collecting what comes back. */
async function client(proxy: FaultProxy): Promise<{ socket: Socket; received: () => string; closed: Promise<unknown> }> {
  const socket = connect(proxy.port, proxy.host)
  let text = ''
  socket.on('data', (chunk) => (text += chunk.toString()))
  const closed = new Promise((resolve) => {
    socket.on('error', resolve)
    socket.on('close', resolve)
  })
  await once(socket, 'connect')
  return { socket, received: () => text, closed }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return
    await sleep(10)
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('the TCP fault proxy', () => {
  let echo: Server
  let proxy: FaultProxy
  const sockets: Socket[] = []

  beforeAll(async () => {
    echo = createServer((socket) => {
      socket.on('error', () => {}) // reset by the proxy on drop
      socket.pipe(socket)
    })
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
    proxy = await startFaultProxy({ target: { host: '127.0.0.1', port: (echo.address() as AddressInfo).port }, control: true })
  })
  afterEach(() => {
    proxy.setMode('pass')
    for (const socket of sockets.splice(0)) socket.destroy()
  })
  afterAll(async () => {
    await proxy.close()
    await new Promise<void>((resolve) => echo.close(() => resolve()))
  })

  it('passes bytes both ways and counts them', async () => {
    proxy.resetStats()
    const c = await client(proxy)
    sockets.push(c.socket)
    c.socket.write('hello')
    await until(() => c.received() === 'hello', 'the echo')
    expect(proxy.stats()).toMatchObject({ mode: 'pass', accepted: 1, open: 1, bytesUp: 5, bytesDown: 5 })
  })

  it('stalls new and open connections silently, and lets them carry on when passing again', async () => {
    const open = await client(proxy)
    sockets.push(open.socket)
    open.socket.write('a')
    await until(() => open.received() === 'a', 'the first echo')
    proxy.setMode('stall')
    const held = await client(proxy)
    sockets.push(held.socket)
    open.socket.write('b')
    held.socket.write('c')
    await sleep(300)
    expect([open.received(), held.received()]).toEqual(['a', ''])
    expect(proxy.stats()).toMatchObject({ mode: 'stall', open: 2 })
    proxy.setMode('pass')
    await until(() => open.received() === 'ab' && held.received() === 'c', 'the held echoes')
  })

  it('resets open connections on drop, and new ones while dropping', async () => {
    const open = await client(proxy)
    sockets.push(open.socket)
    proxy.setMode('drop')
    expect(await open.closed).toMatchObject({ code: 'ECONNRESET' })
    const late = connect(proxy.port, proxy.host)
    sockets.push(late)
    const failure = await new Promise((resolve) => {
      late.on('error', resolve)
      late.on('close', resolve)
    })
    expect(failure === false || (failure as { code?: string }).code === 'ECONNRESET').toBe(true)
    expect(proxy.stats().open).toBe(0)
  })

  it('switches modes over its HTTP control endpoint', async () => {
    const stall = await fetch(`${proxy.controlUrl}/mode/stall`, { method: 'POST' })
    expect(stall.status).toBe(200)
    expect(await stall.json()).toMatchObject({ mode: 'stall' })
    expect(proxy.mode()).toBe('stall')
    expect(await (await fetch(`${proxy.controlUrl}/stats`)).json()).toMatchObject({ mode: 'stall' })
    const unknown = await fetch(`${proxy.controlUrl}/mode/explode`, { method: 'POST' })
    expect(unknown.status).toBe(404)
    expect(proxy.mode()).toBe('stall')
  })
})
