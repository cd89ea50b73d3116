import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import worker from '../../../worker/index.ts'
import type { App } from '../../../worker/app.ts'
import type { CloudflareEnv as Env } from '../../../worker/platform/cloudflare/cloudflare-env.ts'

/** Origin of every test request; same-origin browser requests send this as `Origin`. */
export const ORIGIN = 'http://loupe.test'

export interface ApiCall {
  /** Extra query parameters (besides `api`). */
  readonly query?: Record<string, string | number | boolean>
  /** A JSON value, or a raw string/bytes body sent as is. */
  readonly body?: unknown
  readonly headers?: Record<string, string>
  /** Base URL the request is sent to (default `ORIGIN`). */
  readonly base?: string
  /** Overrides of the worker's bindings for this call (e.g. `SERVICE_TOKEN`). */
  readonly env?: Partial<Record<keyof Env, string>>
  /** Another build of the worker (e.g. `createApp({ plugins })` with a test plugin); default worker/index.ts. */
  readonly worker?: Pick<App, 'fetch'>
}

export interface ApiResponse<T = any> {
  readonly status: number
  readonly headers: Headers
  readonly body: T
  readonly text: string
  /** Database round trips the request made (from `Server-Timing`), or 0. */
  readonly roundTrips: number
}

/**
 * Calls the worker's real fetch handler inside workerd, exactly as a client would reach it, with the
 * driver bindings of the current parity leg (vitest project `api-<driver>`).
 */
export async function call<T = any>(method: string, api: string, options: ApiCall = {}): Promise<ApiResponse<T>> {
  const url = new URL(`${options.base ?? ORIGIN}/`)
  url.searchParams.set('api', api)
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value))
  const headers = new Headers(options.headers)
  let body: BodyInit | undefined
  if (options.body !== undefined) {
    if (typeof options.body === 'string' || options.body instanceof Uint8Array) body = options.body as BodyInit
    else {
      body = JSON.stringify(options.body)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    }
  }
  const request = new Request(url, { method, headers, body })
  const ctx = createExecutionContext()
  const testEnv = (options.env ? { ...env, ...options.env } : env) as Env
  const response = await (options.worker ?? worker).fetch(request as Request<unknown, IncomingRequestCfProperties>, testEnv, ctx)
  await waitOnExecutionContext(ctx)
  const text = await response.text()
  const timing = /desc="(\d+) round trips"/.exec(response.headers.get('server-timing') ?? '')
  let parsed: unknown = undefined
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text, roundTrips: timing ? Number(timing[1]) : 0 }
}

export const get = <T = any>(api: string, options?: ApiCall) => call<T>('GET', api, options)
export const post = <T = any>(api: string, body?: unknown, options?: ApiCall) => call<T>('POST', api, { ...options, body })

/** The driver this parity leg runs against. */
export const DRIVER = (env as unknown as { LOUPE_TEST_DRIVER: string }).LOUPE_TEST_DRIVER

/** The runtime serving this leg: workerd (`api-<driver>`) or Deno (`deno-<driver>`, test/deno/cloudflare-test-shim.ts). */
export const RUNTIME = (env as unknown as { LOUPE_TEST_RUNTIME?: 'deno' }).LOUPE_TEST_RUNTIME ?? 'workers'

let counter = 0
/**
 * Registers a fresh application for one test file, so files never see each other's data even when they
 * share a database (libSQL, Neon and PlanetScale legs share one database per run).
 */
export async function createTestApp(label: string): Promise<string> {
  const id = `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 6)}`.slice(0, 64)
  const response = await post('applications', { name: `Test ${label}`, id })
  if (response.status !== 201) throw new Error(`could not create application ${id}: ${response.status} ${response.text}`)
  return id
}
