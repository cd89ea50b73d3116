import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test'
import type { Driver, Statement } from '../../drivers/driver.ts'
import { createApp, createDeps } from '../../worker/app.ts'
import { cloudflareRuntime } from '../../worker/platform/cloudflare/cloudflare-runtime.ts'
import { RequestDatabases, type DatabaseHandle } from '../../worker/db/request-databases.ts'
import type { Deps } from '../../worker/deps.ts'
import type { CloudflareEnv as Env } from '../../worker/platform/cloudflare/cloudflare-env.ts'
import worker from '../../worker/index.ts'
import { runImportJob } from '../../worker/jobs/run-job-step.ts'
import type { ImportMessage } from '../../worker/jobs/job-message.ts'
import { wrapDriver } from '../../drivers/wrap-driver.ts'

/**
 * Drives imports step by step in the parity suite (test/api/ingestion-*.test.ts): a Queue binding that records
 * messages so a test delivers them itself, and domain-level `Deps` whose database sees every statement first
 * (`before`), to inject a fault or to act at an exact point of a run (an upload arriving while a job closes).
 * The driver underneath is the real one of the parity leg.
 */
export interface RecordedMessage {
  readonly body: ImportMessage
  readonly delaySeconds?: number
}

export function recordingQueue() {
  const sent: RecordedMessage[] = []
  return {
    sent,
    queue: {
      send: async (body: ImportMessage, options?: { delaySeconds?: number }) => {
        sent.push({ body, delaySeconds: options?.delaySeconds })
      },
      sendBatch: async () => {},
    },
  }
}

/** Sees each statement list (one for `execute`, all of a `batch`) before the driver runs it. */
export type StatementHook = (statements: readonly Statement[]) => Promise<void> | void

function hooked(db: Driver, before: StatementHook): Driver {
  return wrapDriver(db, async (call, proceed) => {
    if (call.kind !== 'version') await before(call.statements)
    return proceed()
  })
}

class HookedDatabases extends RequestDatabases {
  private wrapped: DatabaseHandle | undefined
  constructor(
    testEnv: Env,
    private readonly before: StatementHook,
  ) {
    super(testEnv)
  }
  override main(): DatabaseHandle {
    const handle = super.main()
    this.wrapped ??= { ...handle, db: hooked(handle.db, this.before) }
    return this.wrapped
  }
}

/** The worker's `Deps` for the parity leg's bindings plus `overrides`, with `before` in front of the database. */
export function hookedDeps(overrides: Record<string, unknown>, before: StatementHook = () => {}): Deps {
  const testEnv = { ...env, ...overrides } as unknown as Env
  return { ...createDeps(testEnv, createExecutionContext(), createApp({ runtime: cloudflareRuntime })), databases: new HookedDatabases(testEnv, before) }
}

/** True when any argument of the statements is a string containing `marker` (event text travels in JSON parameters). */
export function mentions(statements: readonly Statement[], marker: string): boolean {
  return statements.some((statement) => (statement.args ?? []).some((arg) => typeof arg === 'string' && arg.includes(marker)))
}

/** Runs the worker's `queue` handler on one message, as the Queue would (fresh `Deps` from `testEnv`). */
export async function deliver(message: ImportMessage, testEnv: Record<string, unknown>) {
  const batch = createMessageBatch<ImportMessage>('loupe-imports', [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: message }])
  const ctx = createExecutionContext()
  await worker.queue(batch as MessageBatch<unknown>, testEnv as unknown as Env, ctx)
  return getQueueResult(batch, ctx)
}

/**
 * Delivers recorded messages (and whatever they send in turn) until none is left; `run` delivers one. Returns
 * how many were delivered. A run that keeps sending is a failure, not a hang.
 */
export async function drainQueue(sent: RecordedMessage[], run: (message: ImportMessage) => Promise<unknown>, limit = 50): Promise<number> {
  let delivered = 0
  while (sent.length > 0) {
    if (++delivered > limit) throw new Error(`the queue did not drain after ${limit} messages`)
    await run(sent.shift()!.body)
  }
  return delivered
}

/** Drains with the worker's own queue handler. */
export function drainWithWorker(sent: RecordedMessage[], testEnv: Record<string, unknown>): Promise<number> {
  return drainQueue(sent, (message) => deliver(message, testEnv))
}

/** Drains with `runImportJob` on the given (hooked) deps. */
export function drainWithDeps(sent: RecordedMessage[], deps: Deps): Promise<number> {
  return drainQueue(sent, (message) => runImportJob(deps, message))
}

/**
 * `count` Laravel ERROR events that all group into one issue per `topic` (letters only, so no normalisation
 * merges two topics), one second apart from `from`.
 */
export function topicLines(topic: string, count: number, from = 0): string {
  let text = ''
  for (let i = from; i < from + count; i++) {
    const time = `${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`
    text += `[2026-03-01 ${time}] production.ERROR: Checkout failed in ${topic} service\n`
  }
  return text
}

/** `a`, `b`, …, `z`, `ba`, `bb`, … — topic names without digits. */
export function letters(n: number): string {
  let name = ''
  do {
    name = String.fromCharCode(97 + (n % 26)) + name
    n = Math.floor(n / 26)
  } while (n > 0)
  return name
}

/**
 * 32 uploads for the concurrency suites: 26 distinct files in two module folders (`lines(i)` events each), the
 * same file four times (imported once, then unchanged) and the same bytes under two names (the second is
 * already imported) — with the exact per-issue counts an import of them must end with.
 */
export function thirtyTwoUploads(lines: (i: number) => number): { uploads: { path: string; body: string }[]; expected: Record<string, number> } {
  const uploads: { path: string; body: string }[] = []
  const expected: Record<string, number> = {}
  for (let i = 0; i < 26; i++) {
    const topic = `svc${letters(i)}`
    uploads.push({ path: `${i % 2 ? 'billing' : 'shipping'}/${topic}.log`, body: topicLines(topic, lines(i)) })
    expected[`Checkout failed in ${topic} service`] = lines(i)
  }
  const same = topicLines('same', 9)
  for (let i = 0; i < 4; i++) uploads.push({ path: 'shared/same.log', body: same })
  expected['Checkout failed in same service'] = 9
  const twin = topicLines('twin', 5)
  uploads.push({ path: 'shared/twin-a.log', body: twin }, { path: 'shared/twin-b.log', body: twin })
  expected['Checkout failed in twin service'] = 5
  return { uploads, expected }
}
