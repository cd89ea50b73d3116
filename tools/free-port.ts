import { createServer } from 'node:net'

/**
 * A loopback port that was free a moment ago. Only a probe: another process (a parallel test file's wrangler,
 * workerd's own loopback sockets, a server another file starts) can bind it before the server meant for it
 * does, so servers started on it go through `onFreePort`.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** How many ports a start may find taken before it gives up (a CI run lost a test file to a single one). */
export const PORT_ATTEMPTS = 4

/**
 * Runs `start` on a fresh port until it does not fail with "Address already in use" (wrangler's and nginx's
 * words, or Node's EADDRINUSE); any other failure, or the PORT_ATTEMPTS-th taken port, is thrown as it came.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, pickPort: () => Promise<number> = freePort): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await pickPort())
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !isPortTaken(error)) throw error
    }
  }
}

function isPortTaken(error: unknown): boolean {
  return error instanceof Error && /Address already in use|EADDRINUSE/.test(error.message)
}
