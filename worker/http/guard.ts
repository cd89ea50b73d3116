import { ForbiddenError, UnauthorizedError } from '../errors.ts'
import type { Deps } from '../deps.ts'
import { secretsEqual } from '../security/secrets-equal.ts'

/** Routes that authenticate themselves and skip both checks (seed §5). */
const SELF_AUTHENTICATING = new Set(['/health', '/ingest', '/tracker-webhook'])
/** Methods the cross-origin rule never applies to (seed §5 rule 3). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export const TOKEN_REQUIRED_MESSAGE = 'A valid API key is required. Send it as X-Service-Token or Authorization: Bearer.'
export const CROSS_ORIGIN_MESSAGE = 'Cross-origin request blocked. State-changing requests must come from the same origin.'

/**
 * The request guard (seed §5): the API token first, then the Origin check for state-changing methods.
 * Returns nothing to let the request through (itty-router `before` stage).
 */
export async function withGuard(request: Request, deps: Deps): Promise<void> {
  const path = new URL(request.url).pathname
  if (SELF_AUTHENTICATING.has(path)) return
  const expected = deps.config.token
  if (expected !== null) {
    const presented = presentedToken(request)
    if (presented === null || !(await secretsEqual(presented, expected))) throw new UnauthorizedError(TOKEN_REQUIRED_MESSAGE)
  }
  if (!SAFE_METHODS.has(request.method) && !isSameOrigin(request, deps.config.serviceUrl)) {
    throw new ForbiddenError(CROSS_ORIGIN_MESSAGE)
  }
}

function presentedToken(request: Request): string | null {
  const header = request.headers.get('x-service-token')
  if (header !== null) return header.trim()
  const authorization = request.headers.get('authorization')
  const match = authorization ? /^Bearer\s+(.+)$/i.exec(authorization.trim()) : null
  return match ? match[1]!.trim() : null
}

/**
 * No Origin header (non-browser clients) passes. Otherwise the Origin must name the request's own host —
 * or the `SERVICE_URL` host — case-insensitively, with ports compared only when both sides state one and
 * the scheme ignored (design.md §6, reference §5).
 */
export function isSameOrigin(request: Request, serviceUrl: string | null): boolean {
  const origin = request.headers.get('origin')
  if (origin === null) return true
  let originUrl: URL
  try {
    originUrl = new URL(origin)
  } catch {
    return false // "null" or garbage: not a same-origin browser request
  }
  const candidates = [new URL(request.url).host, request.headers.get('host'), serviceUrl && new URL(serviceUrl).host]
  return candidates.some((host) => typeof host === 'string' && host !== '' && hostsMatch(originUrl, host))
}

function hostsMatch(origin: URL, host: string): boolean {
  const [hostname, port] = splitHost(host)
  if (origin.hostname.toLowerCase() !== hostname.toLowerCase()) return false
  return origin.port === '' || port === '' || origin.port === port
}

/** `example.com:8787` → [example.com, 8787]; `[::1]:80` → [[::1], 80]. */
function splitHost(host: string): [string, string] {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim())
  return match ? [match[1]!, match[2] ?? ''] : [host, '']
}
