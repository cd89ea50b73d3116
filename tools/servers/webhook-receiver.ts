import type { IncomingMessage, ServerResponse } from 'node:http'
import { readBody, sendJson, startLocalServer, type LocalServer } from './local-http.ts'

/** One request a receiver got. */
export interface ReceivedHook {
  readonly method: string
  readonly path: string
  readonly contentType: string | null
  readonly userAgent: string | null
  readonly body: string
}

export type WebhookReceiver = LocalServer

/**
 * A loopback HTTP server standing in for Slack, Discord and webhook endpoints (the alerting tests post to it
 * from workerd). `POST /hooks/<name>` records the request under `<name>` and answers `?status=` (default 200),
 * after `?delay_ms=`, with `?location=` for redirects; `?fail=N` answers 503 to the first N posts, then the
 * status. `GET /captured/<name>` returns what `<name>` received, oldest first.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received = new Map<string, ReceivedHook[]>()
  return startLocalServer((request, response) => handle(request, response, received), () => ({ error: 'receiver failed' }))
}

async function handle(request: IncomingMessage, response: ServerResponse, received: Map<string, ReceivedHook[]>): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://receiver')
  const [, kind, name] = url.pathname.split('/')
  if (kind === 'captured' && name && request.method === 'GET') {
    sendJson(response, 200, received.get(name) ?? [])
    return
  }
  if (kind !== 'hooks' || !name) {
    response.statusCode = 404
    response.end()
    return
  }
  const body = await readBody(request)
  const list = received.get(name) ?? []
  received.set(name, list)
  list.push({
    method: request.method ?? '',
    path: `${url.pathname}${url.search}`,
    contentType: request.headers['content-type'] ?? null,
    userAgent: request.headers['user-agent'] ?? null,
    body,
  })
  const delay = Number(url.searchParams.get('delay_ms') ?? 0)
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
  const failFirst = Number(url.searchParams.get('fail') ?? 0)
  response.statusCode = list.length <= failFirst ? 503 : Number(url.searchParams.get('status') ?? 200)
  const location = url.searchParams.get('location')
  if (location) response.setHeader('location', location)
  response.end(response.statusCode >= 400 ? 'no' : 'ok')
}
