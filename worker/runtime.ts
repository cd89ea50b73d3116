import type { Env } from './env.ts'
import type { LogStore } from './intake/log-store.ts'
import type { JobQueue } from './jobs/job-queue.ts'

/**
 * What a runtime gives the app beyond the Web platform: where log files live and where background import
 * jobs continue. Workers: R2 and a Queue (worker/platform/cloudflare/); Deno: a directory and in-process
 * jobs (worker/platform/deno/). `E` is the runtime's own environment, which carries its bindings.
 */
export interface Runtime<E extends Env = Env> {
  /** null: no log storage is configured (uploads and imports answer with a clear error). */
  logStore(env: E): LogStore | null
  /** null: the scheduled maintenance continues background imports instead. */
  jobQueue(env: E): JobQueue | null
}

/** The one request's lifetime, as the app needs it (a Workers `ExecutionContext` fits). */
export interface RequestContext {
  /** Keeps the runtime alive for work that finishes after the response. */
  waitUntil(promise: Promise<unknown>): void
}
