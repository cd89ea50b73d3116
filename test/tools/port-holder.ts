import { createServer } from 'node:net'

export interface HeldPort {
  readonly port: number
  release(): Promise<void>
}

/**
 * A loopback port held by something that is not the server under test: it accepts and drops every connection,
 * so a start on it must fail and be retried (tools/free-port.ts), never hang on or talk to the holder.
 */
export function holdPort(): Promise<HeldPort> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy())
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as { port: number }).port,
        release: () => new Promise((done) => server.close(() => done())),
      }),
    )
  })
}
