import { INGEST_KEY_HEADER } from '../../../shared/schemas/ingest.ts'

/**
 * The key a client presented (reference §4.3): the `X-Loupe-Ingest-Key` header, then `Authorization: Bearer`,
 * then `?key=` — the form `navigator.sendBeacon` can send, as it sets no headers.
 */
export function presentedIngestKey(headers: Headers, url: URL): string | null {
  const header = headers.get(INGEST_KEY_HEADER)?.trim()
  if (header) return header
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '')?.[1]
  if (bearer) return bearer
  return url.searchParams.get('key')?.trim() || null
}

/**
 * The client's address for the per-IP cap: the connecting address Cloudflare reports (`CF-Connecting-IP`), or
 * with `ingest.trust_forwarded_for` the leftmost `X-Forwarded-For` entry (a proxy in front of the worker).
 */
export function clientAddress(headers: Headers, trustForwardedFor: boolean): string | null {
  if (trustForwardedFor) {
    const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return headers.get('cf-connecting-ip')?.trim() || null
}

/**
 * Browsers post from other origins (the browser snippet, `@sentry/browser`): any origin may send, with the key
 * as its only credential, so the answers carry no cookies and allow every origin (design.md §6).
 */
export const INGEST_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': `content-type, content-encoding, authorization, ${INGEST_KEY_HEADER.toLowerCase()}, x-sentry-auth, sentry-trace, baggage`,
  'access-control-expose-headers': 'retry-after, x-sentry-rate-limits',
  'access-control-max-age': '86400',
}
