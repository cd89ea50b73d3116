import type { Env } from '../env.ts'

/**
 * Headers on every dashboard response (design.md §6): a strict CSP (same-origin everything, no inline
 * script), no sniffing, no framing, no referrer.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
}

/** Everything without `?api=` is the dashboard, served from `[assets]` with the security headers added. */
export async function serveDashboard(request: Request, env: Env): Promise<Response> {
  const upstream = env.ASSETS ? await env.ASSETS.fetch(request) : placeholder()
  const response = new Response(upstream.body, upstream)
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value)
  // Vite names built files by content hash, so they never change under the same URL.
  if (upstream.ok && new URL(request.url).pathname.startsWith('/assets/')) {
    response.headers.set('cache-control', 'public, max-age=31536000, immutable')
  }
  return response
}

function placeholder(): Response {
  return new Response('<!doctype html><title>Loupe</title><p>The dashboard has not been built. Run <code>npm run build</code>.</p>', {
    status: 404,
    headers: { 'content-type': 'text/html; charset=utf-8' },
  })
}
