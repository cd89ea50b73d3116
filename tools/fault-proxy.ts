/**
 * A TCP fault proxy for tests: put it between a client and a server (the local protocol servers and
 * PostgreSQL/MariaDB, or the worker and the Hrana server) and switch what the network does:
 *
 * - `pass`: bytes flow both ways, as if the proxy were not there;
 * - `stall`: connections stay open and silent — new ones are accepted but never forwarded, open ones stop
 *   forwarding in both directions (what issue 10 saw: requests hanging forever on a silent database);
 *   back in `pass`, held connections carry on where they stopped;
 * - `drop`: every open connection is reset (TCP RST), and new ones are reset as they arrive.
 *
 * Tests in Node drive it directly; tests inside workerd, which cannot reach this object, use its HTTP
 * control endpoint (`controlUrl`): `POST /mode/<pass|stall|drop>` and `GET /stats`, both answering the stats.
 *
 * CLI: `npx tsx tools/fault-proxy.ts --target 127.0.0.1:5432 [--port 6432] [--control-port 6433]`.
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

export type FaultMode = 'pass' | 'stall' | 'drop'
export const FAULT_MODES: readonly FaultMode[] = ['pass', 'stall', 'drop']

export interface FaultProxyOptions {
  /** Where connections go in `pass` mode. */
  readonly target: { readonly host: string; readonly port: number }
  /** Interface to listen on; default `127.0.0.1`. */
  readonly host?: string
  /** Port to listen on; default 0 (ephemeral, read it back from `port`). */
  readonly port?: number
  /** Also serve the HTTP control endpoint (on `controlPort`, default ephemeral). */
  readonly control?: boolean
  readonly controlPort?: number
  /** Mode at start; default `pass`. */
  readonly mode?: FaultMode
}

/** What the proxy has seen, for assertions (e.g. that a client really went through this proxy). */
export interface FaultProxyStats {
  readonly mode: FaultMode
  /** Connections accepted since start (or the last `resetStats`). */
  readonly accepted: number
  /** Connections open now. */
  readonly open: number
  /** Bytes forwarded client → target and target → client. */
  readonly bytesUp: number
  readonly bytesDown: number
}

export interface FaultProxy {
  readonly host: string
  readonly port: number
  /** `http://HOST:PORT` of the control endpoint, when `control` was asked for. */
  readonly controlUrl: string | undefined
  mode(): FaultMode
  setMode(mode: FaultMode): void
  stats(): FaultProxyStats
  resetStats(): void
  /** Resets every connection and stops listening. */
  close(): Promise<void>
}

/** One client connection and, once it is forwarded, its connection to the target. */
interface Link {
  readonly client: Socket
  upstream: Socket | undefined
  flowing: boolean
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const host = options.host ?? '127.0.0.1'
  let mode: FaultMode = options.mode ?? 'pass'
  const links = new Set<Link>()
  let accepted = 0
  let bytesUp = 0
  let bytesDown = 0

  const destroy = (link: Link) => {
    links.delete(link)
    link.client.resetAndDestroy()
    link.upstream?.resetAndDestroy()
  }

  /** Starts or resumes forwarding: connects to the target the first time. */
  const flow = (link: Link) => {
    if (link.flowing) return
    link.flowing = true
    if (!link.upstream) {
      const upstream = connect(options.target.port, options.target.host)
      link.upstream = upstream
      upstream.on('data', (chunk: Buffer) => {
        bytesDown += chunk.length
        if (!link.client.write(chunk)) upstream.pause()
      })
      link.client.on('drain', () => link.flowing && upstream.resume())
      upstream.on('drain', () => link.flowing && link.client.resume())
      upstream.on('error', () => destroy(link))
      upstream.on('close', () => {
        links.delete(link)
        link.client.destroy()
      })
      link.client.on('data', (chunk: Buffer) => {
        bytesUp += chunk.length
        if (!upstream.write(chunk)) link.client.pause()
      })
    }
    link.client.resume()
    link.upstream.resume()
  }

  /** Stops forwarding in both directions; the sockets stay open and say nothing. */
  const hold = (link: Link) => {
    link.flowing = false
    link.client.pause()
    link.upstream?.pause()
  }

  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    accepted++
    if (mode === 'drop') return void client.resetAndDestroy()
    const link: Link = { client, upstream: undefined, flowing: false }
    links.add(link)
    client.on('error', () => destroy(link))
    client.on('close', () => {
      links.delete(link)
      link.upstream?.destroy()
    })
    if (mode === 'pass') flow(link)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })

  const stats = (): FaultProxyStats => ({ mode, accepted, open: links.size, bytesUp, bytesDown })
  const setMode = (next: FaultMode) => {
    if (!FAULT_MODES.includes(next)) throw new Error(`unknown fault mode ${String(next)}`)
    mode = next
    for (const link of [...links]) {
      if (next === 'drop') destroy(link)
      else if (next === 'stall') hold(link)
      else flow(link)
    }
  }

  let control: HttpServer | undefined
  let controlUrl: string | undefined
  if (options.control) {
    control = createHttpServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname
      const requested = /^\/mode\/(\w+)$/.exec(path)?.[1]
      if (req.method === 'POST' && requested && (FAULT_MODES as readonly string[]).includes(requested)) setMode(requested as FaultMode)
      else if (!(req.method === 'GET' && path === '/stats')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'POST /mode/<pass|stall|drop> or GET /stats' }))
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats()))
    })
    await new Promise<void>((resolve, reject) => {
      control!.once('error', reject)
      control!.listen(options.controlPort ?? 0, host, () => resolve())
    })
    controlUrl = `http://${host}:${(control.address() as AddressInfo).port}`
  }

  return {
    host,
    port: (server.address() as AddressInfo).port,
    controlUrl,
    mode: () => mode,
    setMode,
    stats,
    resetStats() {
      accepted = 0
      bytesUp = 0
      bytesDown = 0
    },
    async close() {
      for (const link of [...links]) destroy(link)
      await new Promise<void>((resolve) => server.close(() => resolve()))
      if (control) {
        control.closeAllConnections()
        await new Promise<void>((resolve) => control!.close(() => resolve()))
      }
    },
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { target: { type: 'string' }, port: { type: 'string' }, 'control-port': { type: 'string' } } })
  const target = /^(.+):(\d+)$/.exec(values.target ?? '')
  if (!target) {
    console.error('usage: fault-proxy.ts --target HOST:PORT [--port N] [--control-port N]')
    process.exit(2)
  }
  const proxy = await startFaultProxy({
    target: { host: target[1]!, port: Number(target[2]) },
    ...(values.port === undefined ? {} : { port: Number(values.port) }),
    control: true,
    ...(values['control-port'] === undefined ? {} : { controlPort: Number(values['control-port']) }),
  })
  console.log(`${proxy.host}:${proxy.port} → ${values.target}; control ${proxy.controlUrl}`)
  const stop = (): void => void proxy.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
