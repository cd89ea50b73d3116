import { env } from 'cloudflare:test'
import { expect } from 'vitest'
import { call, createTestApp, type ApiCall, type ApiResponse } from './helpers/api.ts'

/**
 * Helpers of the alerting parity tests (test/api/alerts*.test.ts): calls with a SERVICE_SECRET and local
 * targets allowed (the receiver is plain http on loopback), and the loopback webhook receiver
 * (tools/servers/webhook-receiver.ts) the channels post to.
 */
export const RECEIVER = (env as unknown as { WEBHOOK_RECEIVER_URL: string }).WEBHOOK_RECEIVER_URL

export const ALERT_CONFIG = { allow_local_targets: true, timeout_ms: 1000, retry_backoff_ms: 5 }
export const ALERT_ENV = { SERVICE_SECRET: 'alerts-test-secret', SERVICE_CONFIG: JSON.stringify({ alerts: ALERT_CONFIG }) }

/** A call in `app` with the alerting test environment. */
export function alertCall(method: string, api: string, app: string, options: ApiCall = {}): Promise<ApiResponse> {
  return call(method, api, { ...options, query: { app, ...options.query }, env: { ...ALERT_ENV, ...options.env } })
}

/** The body of a call that must answer `status`. */
export async function expectStatus(response: Promise<ApiResponse>, status: number): Promise<any> {
  const resolved = await response
  expect(resolved.status, resolved.text).toBe(status)
  return resolved.body
}

/** A fresh application with the alerts plugin on. */
export async function alertingApp(label: string): Promise<string> {
  const app = await createTestApp(label)
  await expectStatus(alertCall('POST', 'plugins', app, { body: { id: 'alerts', enabled: true } }), 200)
  return app
}

let hooks = 0
/** A receiver address nobody else posts to; `query` shapes its answers (`status`, `fail`, `delay_ms`, `location`). */
export function hookUrl(label: string, query = ''): { url: string; name: string } {
  const name = `${label}-${Date.now().toString(36)}-${(hooks++).toString(36)}`
  return { url: `${RECEIVER}/hooks/${name}${query ? `?${query}` : ''}`, name }
}

export interface Received {
  readonly method: string
  readonly path: string
  readonly contentType: string | null
  readonly userAgent: string | null
  readonly body: string
}

/** What the receiver got under `name`, oldest first. */
export async function received(name: string): Promise<Received[]> {
  const response = await fetch(`${RECEIVER}/captured/${name}`)
  return (await response.json()) as Received[]
}

export async function createChannel(app: string, body: Record<string, unknown>): Promise<any> {
  return expectStatus(alertCall('POST', 'alert-channels', app, { body }), 201)
}

export async function createRule(app: string, body: Record<string, unknown>): Promise<any> {
  return expectStatus(alertCall('POST', 'alert-rules', app, { body }), 201)
}

/** Laravel log lines, one per entry, at the given UTC times. */
export function laravelEntries(entries: readonly { readonly at: Date; readonly level?: string; readonly message: string }[]): string {
  return entries.map(({ at, level = 'ERROR', message }) => `[${at.toISOString().slice(0, 19).replace('T', ' ')}] production.${level}: ${message}\n`).join('')
}

let uploads = 0
/** Uploads log text to `app` with the alerting environment (the after-ingest scan reads it) and returns the import result. */
export async function uploadLog(app: string, text: string): Promise<any> {
  return expectStatus(alertCall('POST', 'import-incoming', app, { query: { file: `alerts/part-${uploads++}.log` }, body: text }), 200)
}

export async function alertEvents(app: string, query: Record<string, string> = {}): Promise<any[]> {
  return (await expectStatus(alertCall('GET', 'alert-events', app, { query }), 200)).data
}
