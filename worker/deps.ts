import type { ServiceConfig } from './config.ts'
import type { RequestDatabases } from './db/request-databases.ts'
import type { ApplicationRegistry } from './apps/registry.ts'
import type { Plugin } from './plugins/plugin.ts'
import type { LogStore } from './intake/log-store.ts'
import type { JobQueue } from './jobs/job-queue.ts'
import type { SecretBox } from './security/secret-box.ts'

/**
 * Everything a handler or domain function may use, built once per request in `app.ts`. Nothing reads
 * globals: tests build their own.
 */
export interface Deps {
  readonly config: ServiceConfig
  /** This request's database handles (drivers are per request so round trips are counted per request). */
  readonly databases: RequestDatabases
  /** Per-isolate cache of schemas and applications. */
  readonly registry: ApplicationRegistry
  /** The plugin catalog (`worker/plugins/catalog.ts`); each plugin is on or off per application. */
  readonly plugins: readonly Plugin[]
  /** Log storage (R2's `LOGS` in production); null when none is configured. */
  readonly logs: LogStore | null
  /** Background import jobs (the `IMPORT_QUEUE` Queue in production); null: the cron trigger continues them. */
  readonly jobs: JobQueue | null
  /** Seals and opens integration secrets with `SERVICE_SECRET` (refuses to seal without one). */
  readonly secrets: SecretBox
  now(): Date
  /** Keeps the isolate alive for work that finishes after the response (ExecutionContext.waitUntil). */
  waitUntil(promise: Promise<unknown>): void
}
