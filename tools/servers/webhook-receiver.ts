import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request a receiver got. */
export interface ReceivedHook {
  readonly method: string
  readonly path: string
  readonly contentType: string | null
  readonly userAgent: string | null
  readonly body: string
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  close(): Promise<void>
}

/**
 * A loopback HTTP server standing in for Slack, Discord and webhook endpoints (the alerting tests post to it
 * from workerd). `POST /hooks/<name>` records the request under `<name>` and answers `?status=` (default 200),
 * after `?delay_ms=`, with `?location=` for redirects; `?fail=N` answers 503 to the first N posts, then the
 * status. `GET /captured/<name>` returns what `<name>` received, oldest first.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received = new Map<string, ReceivedHook[]>()
  const server = createServer((request, response) => {
    handle(request, response, received).catch(() => {
      response.statusCode = 500
      response.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function handle(request: IncomingMessage, response: ServerResponse, received: Map<string, ReceivedHook[]>): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://receiver')
  const [, kind, name] = url.pathname.split('/')
  if (kind === 'captured' && name && request.method === 'GET') {
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify(received.get(name) ?? []))
    return
  }
  if (kind !== 'hooks' || !name) {
    response.statusCode = 404
    response.end()
    return
  }
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const list = received.get(name) ?? []
  received.set(name, list)
  list.push({
    method: request.method ?? '',
    path: `${url.pathname}${url.search}`,
    contentType: request.headers['content-type'] ?? null,
    userAgent: request.headers['user-agent'] ?? null,
    body: Buffer.concat(chunks).toString('utf8'),
  })
  const delay = Number(url.searchParams.get('delay_ms') ?? 0)
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
  const failFirst = Number(url.searchParams.get('fail') ?? 0)
  response.statusCode = list.length <= failFirst ? 503 : Number(url.searchParams.get('status') ?? 200)
  const location = url.searchParams.get('location')
  if (location) response.setHeader('location', location)
  response.end(response.statusCode >= 400 ? 'no' : 'ok')
}
