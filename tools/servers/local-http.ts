import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A local test server on a free loopback port: its base URL and a close that drops kept-alive connections. */
export interface LocalServer {
  readonly url: string
  close(): Promise<void>
}

/**
 * Starts a loopback HTTP server for one of the protocol-faithful fakes (Linear, GitHub, …). A handler that
 * throws answers 500 with `errorBody(error)` — the fake's own error shape — so a bug in a fake shows in the
 * test that hit it instead of hanging the request.
 */
export async function startLocalServer(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  errorBody: (error: unknown) => unknown,
): Promise<LocalServer> {
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => sendJson(response, 500, errorBody(error)))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The whole request body as UTF-8 text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

/** A JSON response. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
  response.end(JSON.stringify(body))
}
