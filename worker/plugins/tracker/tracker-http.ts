import { OperationalError, RateLimitedError } from '../../errors.ts'
import { outboundFetch } from '../../security/outbound.ts'
import type { TrackerClient } from './tracker.ts'

/** A tracker's answer, read whole (trackers answer small JSON documents). */
export interface TrackerAnswer {
  readonly status: number
  readonly headers: Headers
  readonly body: unknown
}

/** Tracker answers larger than this are refused rather than read (a page of 50 issues is far smaller). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024

/**
 * One request to a tracker under the outbound rules (design.md §6: the policy's scheme and address checks, no
 * redirects, a deadline). A refusal or a failed connection is a 400 naming the tracker; the body is JSON or null.
 */
export async function trackerRequest(name: string, client: TrackerClient, url: string, init: RequestInit): Promise<TrackerAnswer> {
  let response: Response
  try {
    response = await outboundFetch(url, init, client.policy)
  } catch (error) {
    throw new OperationalError(`${name} could not be reached: ${error instanceof Error ? error.message : String(error)}.`, { cause: error })
  }
  const text = await readLimited(response)
  let body: unknown = null
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    body = null
  }
  return { status: response.status, headers: response.headers, body }
}

/** A 429 for the caller, retrying after the tracker's reset time (at least one second, at most an hour). */
export function trackerRateLimited(name: string, resetAtMs: number | null, retryAfterSeconds: number | null, now = Date.now()): RateLimitedError {
  const fromReset = resetAtMs !== null && Number.isFinite(resetAtMs) ? Math.ceil((resetAtMs - now) / 1000) : null
  const seconds = Math.min(3600, Math.max(1, retryAfterSeconds ?? fromReset ?? 60))
  return new RateLimitedError(`${name} rate limit reached. Try again shortly.`, seconds)
}

async function readLimited(response: Response): Promise<string> {
  const length = Number(response.headers.get('content-length') ?? 0)
  if (length > MAX_ANSWER_BYTES) {
    await response.body?.cancel()
    throw new OperationalError('The tracker answered with more data than expected.')
  }
  const text = await response.text()
  if (text.length > MAX_ANSWER_BYTES) throw new OperationalError('The tracker answered with more data than expected.')
  return text
}

/** Lower-case hex HMAC-SHA256 of `body` with `secret` (Linear's and GitHub's webhook signatures). */
export async function hmacHex(secret: string, body: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, body as Uint8Array<ArrayBuffer>))
  return Array.from(signature, (byte) => byte.toString(16).padStart(2, '0')).join('')
}
