/**
 * Stands in for `cloudflare:test` in the Deno legs (vitest projects `deno-<driver>`), so the API suite's
 * files run unchanged against the Deno entry: `env` holds the leg's database settings, its driver name
 * and `LOGS` — the server's log directory seen through the slice of R2 the tests use — and execution
 * contexts are inert because the test entry answers only after its after-response work (test-entry.ts).
 * The server starts once per test file, with its own log directory, and stops after the file.
 */
import { afterAll, inject } from 'vitest'
import { directoryBucket } from './directory-bucket.ts'
import { startDenoServer } from './deno-server.ts'

const driver = process.env.LOUPE_TEST_DRIVER!
// A leg's own database where it has one (libSQL: tools/database-targets.ts), else the one the workerd leg uses.
const bindings = inject('driverBindings')[`deno-${driver}`] ?? inject('driverBindings')[driver]
if (!bindings) throw new Error(`no database is running for the ${driver} leg`)

export const server = await startDenoServer(bindings)
afterAll(() => server.stop())

export const env = { ...bindings, LOUPE_TEST_DRIVER: driver, LOUPE_TEST_RUNTIME: 'deno', WEBHOOK_RECEIVER_URL: inject('webhookReceiverUrl'), LOGS: directoryBucket(server.logsDir) }

export function createExecutionContext() {
  return { waitUntil() {}, passThroughOnException() {}, props: {} }
}

export async function waitOnExecutionContext(): Promise<void> {}

export function createMessageBatch(): never {
  throw new Error('queue batches exist only in the workerd legs; keep queue tests out of the Deno legs')
}

export const getQueueResult = createMessageBatch
