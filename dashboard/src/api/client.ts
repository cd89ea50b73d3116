import { getToken } from '../state/token.ts'
import { ApiError } from './api-error.ts'

export { ApiError }

type QueryValue = string | number | boolean | null | undefined

export interface RequestOptions {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  readonly query?: Readonly<Record<string, QueryValue>>
  /** A JSON body. */
  readonly body?: unknown
  /** A raw body (log upload), sent as application/octet-stream. */
  readonly raw?: Blob | ArrayBuffer | string
  /** The application; `null` for the endpoints outside any application (`applications`, `health`). */
  readonly app?: string | null
  readonly signal?: AbortSignal
}

let currentApp = ''
const unauthorizedListeners = new Set<() => void>()

/** The application every call is scoped to unless it says otherwise (the shell keeps it in step with the URL). */
export function setCurrentApp(app: string): void {
  currentApp = app
}

/** Called on every 401, so the shell can show the API-key screen. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener)
  return () => unauthorizedListeners.delete(listener)
}

/**
 * Whether the server accepts `token` (issue 17 item 13: a key is checked before it is called saved). Asks
 * `applications` — cheap, outside any application, behind the token like every endpoint but `health` —
 * with the candidate key only; it never touches the saved key and never tells the shell about the 401.
 * Any other failure (server unreachable, 5xx) is an ApiError: "refused" would be a lie then.
 */
export async function checkToken(token: string): Promise<boolean> {
  let response: Response
  try {
    response = await fetch(apiUrl('applications', {}, null), { headers: { accept: 'application/json', 'x-service-token': token }, credentials: 'same-origin', cache: 'no-store' })
  } catch {
    throw new ApiError(0, 'The server could not be reached. Check that Loupe is running, then retry.')
  }
  if (response.ok) return true
  if (response.status === 401) return false
  const data: unknown = await response.json().catch(() => null)
  throw new ApiError(response.status, isErrorBody(data) ? data.error : `The key could not be checked (HTTP ${response.status}).`)
}

/** `/?api=<endpoint>&app=<app>&…` on this origin; empty values are left out. */
export function apiUrl(endpoint: string, query: RequestOptions['query'] = {}, app: string | null = currentApp): string {
  const params = new URLSearchParams({ api: endpoint })
  if (app) params.set('app', app)
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value))
  }
  return `/?${params.toString()}`
}

/**
 * Calls one API endpoint and returns its JSON. Errors become `ApiError {status, message}` carrying the
 * server's `error` text; a 401 also tells the shell to ask for the API key.
 *
 * @example
 * const tags = await api<{ data: Tag[] }>('tags')
 * await api('issue-status', { method: 'POST', body: { id: 7, status: 'fixed', note: 'Deployed' } })
 */
export async function api<T>(endpoint: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
  const token = getToken()
  if (token) headers['x-service-token'] = token
  let body: BodyInit | undefined
  if (options.raw !== undefined) {
    body = options.raw
    headers['content-type'] = 'application/octet-stream'
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers['content-type'] = 'application/json'
  }
  const method = options.method ?? (body === undefined ? 'GET' : 'POST')
  const url = apiUrl(endpoint, options.query, options.app === undefined ? currentApp : options.app)

  let response: Response
  try {
    response = await fetch(url, { method, headers, body, signal: options.signal, credentials: 'same-origin', cache: 'no-store' })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new ApiError(0, 'The server could not be reached. Check that Loupe is running, then retry.')
  }
  const text = await response.text()
  let data: unknown = null
  try {
    data = text ? JSON.parse(text) : null
  } catch {
    data = null
  }
  if (!response.ok) {
    const message = isErrorBody(data) ? data.error : `The request failed (HTTP ${response.status}).`
    // A 401 for a request sent with an older key (the user just saved a new one) is stale: no dialog.
    if (response.status === 401 && getToken() === token) for (const listener of unauthorizedListeners) listener()
    throw new ApiError(response.status, message)
  }
  if (data === null) throw new ApiError(response.status, 'The server sent a response the dashboard cannot read.')
  return data as T
}

function isErrorBody(value: unknown): value is { error: string } {
  return typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string'
}
