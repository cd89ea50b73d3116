/**
 * Stands in for worker/index.ts in the Deno legs: `fetch(request, env)` sends the request to the Deno
 * server over HTTP, passing the values a test overrides in `env` (strings that differ from the leg's own)
 * in the test entry's `x-loupe-test-env` header (test/deno/test-entry.ts).
 */
import { env as legEnv, server } from './cloudflare-test-shim.ts'

async function fetchOnDeno(request: Request, env: Record<string, unknown>): Promise<Response> {
  const overrides = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => typeof value === 'string' && value !== (legEnv as Record<string, unknown>)[name]),
  )
  const url = new URL(request.url)
  const target = new URL(`${url.pathname}${url.search}`, server.url)
  const headers = new Headers(request.headers)
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
  // What HTTP cannot carry as is travels in test headers the test entry puts back: the URL the test used
  // (the worker compares Origin with its own host) and a declared length that differs from the body's
  // (the 413-before-reading tests).
  headers.set('x-loupe-test-url', request.url)
  const declared = headers.get('content-length')
  if (declared !== null && Number(declared) !== (body?.byteLength ?? 0)) headers.set('x-loupe-test-content-length', declared)
  headers.delete('content-length')
  if (Object.keys(overrides).length) headers.set('x-loupe-test-env', JSON.stringify(overrides))
  return fetch(target, { method: request.method, headers, body, redirect: 'manual' })
}

export default { fetch: fetchOnDeno }
