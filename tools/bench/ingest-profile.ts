/**
 * `npx tsx tools/bench/ingest-profile.ts [--events N]` — where the worker's CPU goes while it accepts Sentry
 * envelopes (issue 12): runs `wrangler dev`, connects to its inspector (Chrome DevTools protocol), records a
 * CPU profile of workerd's isolate during the 32-sender envelope bench, and prints the functions with the most
 * self time. Bundled code keeps its function names, so the list reads like the source.
 */
import { parseArgs } from 'node:util'
import WebSocket from 'ws'
import { startWorker } from '../worker-process.ts'
import { sentryIngestBench } from './sentry-ingest.ts'
import { send } from './measure.ts'

const { values } = parseArgs({ options: { events: { type: 'string', default: '4000' }, top: { type: 'string', default: '40' } } })

async function main(): Promise<void> {
  const worker = await startWorker({ SERVICE_SECRET: 'profile-secret', SERVICE_CONFIG: JSON.stringify({ ingest: { rate_max_events: 10_000_000 } }) }, 'ingest-profile')
  const base = worker.url
  try {
    await send(base, { method: 'POST', api: 'applications', body: { name: 'Profile', id: 'profile' } })
    await send(base, { method: 'POST', api: 'plugins', body: { id: 'http_ingest', enabled: true } }, 'profile')
    const settings = await send(base, { method: 'GET', api: 'ingest-settings' }, 'profile')
    await sentryIngestBench(base, settings.body.dsn, { events: 500, senders: 32, app: 'profile' })
    const targets = (await (await fetch(`${worker.inspectorUrl}/json`)).json()) as { webSocketDebuggerUrl: string; title?: string }[]
    const socket = new WebSocket(targets.find((t) => !String(t.title ?? '').includes('internal'))?.webSocketDebuggerUrl ?? targets[0]!.webSocketDebuggerUrl)
    await new Promise((resolve) => socket.once('open', resolve))
    let id = 0
    const pending = new Map<number, (result: any) => void>()
    socket.on('message', (data) => {
      const message = JSON.parse(String(data))
      if (message.id !== undefined) pending.get(message.id)?.(message.result)
    })
    const call = (method: string, params: object = {}) => new Promise<any>((resolve) => { pending.set(++id, resolve); socket.send(JSON.stringify({ id, method, params })) })
    await call('Profiler.enable')
    await call('Profiler.setSamplingInterval', { interval: 200 })
    await call('Profiler.start')
    const figures = await sentryIngestBench(base, settings.body.dsn, { events: Number(values.events), senders: 32, app: 'profile' })
    const { profile } = await call('Profiler.stop')
    socket.close()
    console.log(figures.notes.join('\n'))
    const byId = new Map<number, any>(profile.nodes.map((node: any) => [node.id, node]))
    const self = new Map<string, number>()
    let total = 0
    profile.samples.forEach((nodeId: number, index: number) => {
      const node = byId.get(nodeId)
      const frame = node.callFrame
      const key = `${frame.functionName || '(anonymous)'} ${String(frame.url).split('/').slice(-1)[0]}:${frame.lineNumber + 1}`
      const spent = profile.timeDeltas[index] ?? 0
      self.set(key, (self.get(key) ?? 0) + spent)
      total += spent
    })
    const idle = self.get('(idle) :0') ?? 0
    self.delete('(idle) :0')
    const busy = total - idle
    console.log(`profiled ${(total / 1e6).toFixed(1)} s: idle ${(idle / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (shares below are of the busy time)`)
    for (const [key, spent] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
      console.log(`${(spent / 1000).toFixed(0).padStart(7)} ms ${((100 * spent) / busy).toFixed(1).padStart(5)}%  ${key}`)
    }
  } finally {
    await worker.stop()
  }
}

await main()
