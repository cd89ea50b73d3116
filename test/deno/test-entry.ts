/**
 * The Deno entry as the API suite drives it (`deno serve`, started by test/deno/deno-server.ts): the real
 * Deno service (worker/platform/deno/deno-service.ts), with the test-only additions the workerd legs get
 * from `cloudflare:test`: a request may override environment values (header `x-loupe-test-env`, a JSON
 * object, as `call(..., { env })` does there) and keeps the URL and declared length the test gave it
 * (test/deno/remote-worker.ts), and the response is sent only after the request's work after the response
 * has finished (as `waitOnExecutionContext`).
 */
import { createDenoService } from '../../worker/platform/deno/deno-service.ts'

const service = createDenoService({ ...Deno.env.toObject(), MAINTENANCE_INTERVAL_MINUTES: '0' })

const TEST_HEADERS = ['x-loupe-test-env', 'x-loupe-test-url', 'x-loupe-test-content-length']

export default {
  async fetch(request) {
    const header = request.headers.get('x-loupe-test-env')
    const overrides = header ? (JSON.parse(header) as Record<string, string>) : {}
    const url = request.headers.get('x-loupe-test-url') ?? request.url
    const headers = new Headers(request.headers)
    const declared = headers.get('x-loupe-test-content-length')
    if (declared !== null) headers.set('content-length', declared)
    for (const name of TEST_HEADERS) headers.delete(name)
    const pending: Promise<unknown>[] = []
    const ctx = { waitUntil: (promise: Promise<unknown>) => void pending.push(promise.catch(() => undefined)) }
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
    const response = await service.app.fetch(new Request(url, { method: request.method, headers, body }), { ...service.env, ...overrides }, ctx)
    const answer = await response.arrayBuffer()
    while (pending.length > 0) await Promise.all(pending.splice(0))
    return new Response(request.method === 'HEAD' || answer.byteLength === 0 ? null : answer, response)
  },
} satisfies Deno.ServeDefaultExport
