import { CONNECTOR_LIMITS, CONNECTOR_MESSAGES } from '../../shared/schemas/connectors.ts'
import { InvalidInputError, OperationalError } from '../errors.ts'
import { outboundFetch, outboundRefusal } from '../security/outbound.ts'
import { toTimestamp } from '../time.ts'
import type { ConnectorTypeDefinition, RemoteFile, RemoteSource, SourcePolicy } from './connector-type.ts'

/**
 * The `http` connector (design.md §3): log files published over HTTP(S) — a web server's directory, an
 * object store's public or presigned URL — read incrementally with `Range` requests. Each URL is one file:
 * `HEAD` gives its size and identity (ETag, else Last-Modified), `GET` with `Range: bytes=a-b` its new tail.
 * Optional credentials: request headers (e.g. `Authorization: Bearer …`) and/or basic auth, sealed at rest.
 */
export const HTTP_CONNECTOR: ConnectorTypeDefinition = {
  type: 'http',
  parseConfig(value, allowLocalTargets) {
    if (!isObject(value)) throw new InvalidInputError(CONNECTOR_MESSAGES.config)
    const urls = value.urls
    if (!Array.isArray(urls) || urls.length < 1 || urls.length > CONNECTOR_LIMITS.pathsMax) throw new InvalidInputError(CONNECTOR_MESSAGES.httpUrls)
    const normalised: string[] = []
    for (const raw of urls) {
      if (typeof raw !== 'string' || raw.trim().length > CONNECTOR_LIMITS.pathMax) throw new InvalidInputError(CONNECTOR_MESSAGES.httpUrls)
      let url: URL
      try {
        url = new URL(raw.trim())
      } catch {
        throw new InvalidInputError(CONNECTOR_MESSAGES.httpUrls)
      }
      if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.href.length > CONNECTOR_LIMITS.pathMax) {
        throw new InvalidInputError(CONNECTOR_MESSAGES.httpUrls)
      }
      // Checked when saved as well as on every request: a URL that can never be fetched is refused up front.
      const refusal = outboundRefusal(url, { allowLocalTargets })
      if (refusal) throw new InvalidInputError(`Connector URL rejected: ${refusal}.`)
      url.hash = ''
      if (normalised.includes(url.href)) throw new InvalidInputError(CONNECTOR_MESSAGES.httpUrls)
      normalised.push(url.href)
    }
    return { urls: normalised }
  },
  parseCredentials(value) {
    if (value === null || value === undefined) return null
    if (!isObject(value)) throw new InvalidInputError(CONNECTOR_MESSAGES.credentials)
    const { headers, username, password, ...rest } = value
    if (Object.keys(rest).length > 0) throw new InvalidInputError(CONNECTOR_MESSAGES.credentials)
    const parsed: Record<string, unknown> = {}
    if (headers !== undefined) {
      if (!isObject(headers) || Object.keys(headers).length > CONNECTOR_LIMITS.headersMax) throw new InvalidInputError(CONNECTOR_MESSAGES.credentials)
      for (const [name, headerValue] of Object.entries(headers)) {
        const valid = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/.test(name) && typeof headerValue === 'string' && headerValue.length <= CONNECTOR_LIMITS.headerValueMax && !/[\r\n\0]/.test(headerValue)
        // The connector sets Range itself; Host and the like are not the user's to choose.
        if (!valid || ['range', 'host', 'content-length', 'transfer-encoding', 'connection'].includes(name.toLowerCase())) throw new InvalidInputError(CONNECTOR_MESSAGES.credentials)
      }
      parsed.headers = { ...headers }
    }
    if (username !== undefined || password !== undefined) {
      const valid = (text: unknown) => typeof text === 'string' && text.length <= 200 && !/[\r\n\0]/.test(text)
      if (!valid(username) || !valid(password) || (username as string).includes(':') || username === '') throw new InvalidInputError(CONNECTOR_MESSAGES.credentials)
      parsed.username = username
      parsed.password = password
    }
    return Object.keys(parsed).length > 0 ? parsed : null
  },
  credentialsHint(credentials) {
    const parts: string[] = []
    if (typeof credentials.username === 'string') parts.push(`basic auth (user ${credentials.username})`)
    const names = isObject(credentials.headers) ? Object.keys(credentials.headers) : []
    if (names.length > 0) parts.push(`headers: ${names.join(', ')}`)
    return parts.join('; ')
  },
  open(config, credentials, policy) {
    return new HttpSource((config.urls as string[]) ?? [], requestHeaders(credentials), policy)
  },
  testMessage(files, config) {
    const urls = Array.isArray(config.urls) ? config.urls.length : files.length
    return `Connection succeeded; discovered ${files.length} of ${urls} configured log file URL(s).`
  },
}

class HttpSource implements RemoteSource {
  constructor(
    private readonly urls: readonly string[],
    private readonly headers: Record<string, string>,
    private readonly policy: SourcePolicy,
  ) {}

  async list(): Promise<RemoteFile[]> {
    const files: RemoteFile[] = []
    for (const url of this.urls) {
      const file = await this.stat(url)
      if (file) files.push(file)
    }
    return files
  }

  /** The file behind `url`, or null when the server says it does not exist (404, 410): not discovered. */
  private async stat(url: string): Promise<RemoteFile | null> {
    let response = await this.request(url, 'HEAD')
    if (response.status === 404 || response.status === 410) return null
    // Some servers refuse HEAD: one byte of the file tells the size through Content-Range instead.
    if (response.status === 405 || response.status === 501) response = await this.request(url, 'GET', { range: 'bytes=0-0' })
    let size: number | null = null
    if (response.status === 206) size = totalFromContentRange(response.headers.get('content-range'))
    else if (response.ok) size = Number(response.headers.get('content-length') ?? NaN)
    else if (response.status === 416) size = 0 // an empty file has no byte 0
    else throw new OperationalError(`${url}: ${statusProblem(response.status)}`)
    await response.body?.cancel()
    if (size === null || !Number.isSafeInteger(size) || size < 0) throw new OperationalError(`${url}: the server did not say how large the file is (Content-Length).`)
    const etag = response.headers.get('etag')
    const lastModified = response.headers.get('last-modified')
    const modified = lastModified ? new Date(lastModified) : null
    return {
      path: url,
      identity: etag ? `etag:${etag}` : lastModified ? `modified:${lastModified}` : '',
      size,
      modifiedAt: modified && !Number.isNaN(modified.getTime()) ? toTimestamp(modified) : null,
    }
  }

  async read(file: RemoteFile, offset: number, length: number): Promise<Uint8Array> {
    if (length === 0) return new Uint8Array(0)
    const response = await this.request(file.path, 'GET', { range: `bytes=${offset}-${offset + length - 1}` })
    if (response.status !== 206 && !(response.status === 200 && offset === 0)) {
      await response.body?.cancel()
      if (response.status === 200) throw new OperationalError(`${file.path}: the server does not support Range requests, so the file cannot be fetched incrementally.`)
      if (response.status === 416) throw new OperationalError(`${file.path}: the file shrank during the synchronization; synchronize again.`)
      throw new OperationalError(`${file.path}: ${statusProblem(response.status)}`)
    }
    return readRange(file.path, response, offset, length)
  }

  private async request(url: string, method: 'GET' | 'HEAD', extra: Record<string, string> = {}) {
    try {
      return await outboundFetch(url, { method, headers: { ...this.headers, ...extra, 'accept-encoding': 'identity' } }, this.policy)
    } catch (error) {
      throw new OperationalError(`${url}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

/**
 * The bytes of a 206 (or, from offset 0, a 200) answer to a ranged GET: exactly `length` of them, starting where
 * asked; another range, a short body or a connection dropped mid-body is an OperationalError naming the file.
 */
export async function readRange(
  path: string,
  response: { status: number; headers: Headers; body: ReadableStream<Uint8Array> | null },
  offset: number,
  length: number,
): Promise<Uint8Array> {
  if (response.status === 206) {
    const start = /^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')
    if (!start || Number(start[1]) !== offset) {
      await response.body?.cancel()
      throw new OperationalError(`${path}: the server answered another byte range than asked for.`)
    }
  }
  const bytes = await readBody(path, response, length)
  if (bytes.length < length) throw new OperationalError(`${path}: the file ended early (it shrank or was replaced during the synchronization); synchronize again.`)
  return bytes
}

/** At most `length` bytes of the body; a connection that drops mid-body is an OperationalError. */
async function readBody(path: string, response: { body: ReadableStream<Uint8Array> | null }, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length)
  let filled = 0
  const reader = response.body?.getReader()
  if (!reader) return out.subarray(0, 0)
  try {
    while (filled < length) {
      const { done, value } = await reader.read()
      if (done) break
      const take = Math.min(value.length, length - filled)
      out.set(value.subarray(0, take), filled)
      filled += take
    }
  } catch (error) {
    throw new OperationalError(`${path}: the connection dropped while fetching (${error instanceof Error ? error.message : String(error)}); the next synchronization resumes where this one stopped.`)
  } finally {
    await reader.cancel().catch(() => {})
  }
  return out.subarray(0, filled)
}

function totalFromContentRange(header: string | null): number | null {
  const match = /\/(\d+)$/.exec(header ?? '')
  return match ? Number(match[1]) : null
}

function statusProblem(status: number): string {
  if (status >= 300 && status < 400) return `the server answered with a redirect (${status}); redirects are not followed, use the final URL.`
  if (status === 401 || status === 403) return `access denied (${status}); check the connector's credentials.`
  if (status === 404) return 'not found (404).'
  return `the server answered ${status}.`
}

function requestHeaders(credentials: Record<string, unknown> | null): Record<string, string> {
  const headers: Record<string, string> = {}
  if (!credentials) return headers
  if (isObject(credentials.headers)) for (const [name, value] of Object.entries(credentials.headers)) headers[name] = String(value)
  if (typeof credentials.username === 'string') {
    const pair = new TextEncoder().encode(`${credentials.username}:${String(credentials.password ?? '')}`)
    headers.authorization = `Basic ${btoa(String.fromCharCode(...pair))}`
  }
  return headers
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
