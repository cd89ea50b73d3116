import type { AppScope } from '../apps/app-scope.ts'
import type { Deps } from '../deps.ts'
import { toTimestamp } from '../time.ts'
import { updateJobStatement, type ImportJob } from './job-records.ts'

export const NO_QUEUE_MESSAGE = 'No import queue is bound (IMPORT_QUEUE); the cron trigger continues this import.'

/** A queue message asking the consumer to continue one background import job. */
export interface ImportMessage {
  readonly app: string
  readonly job: number
}

/** A queue message asking the consumer to run (or continue) one connector synchronization (worker/connectors/). */
export interface ConnectorRunMessage {
  readonly app: string
  readonly connector_run: number
}

/** Everything the job queue carries. */
export type JobMessage = ImportMessage | ConnectorRunMessage

export function isConnectorRunMessage(value: unknown): value is ConnectorRunMessage {
  if (!value || typeof value !== 'object') return false
  const { app, connector_run: run } = value as Record<string, unknown>
  return typeof app === 'string' && typeof run === 'number' && Number.isSafeInteger(run)
}

export function isImportMessage(value: unknown): value is ImportMessage {
  if (!value || typeof value !== 'object') return false
  const { app, job } = value as Record<string, unknown>
  return typeof app === 'string' && typeof job === 'number' && Number.isSafeInteger(job)
}

/** Sends a job message; false when no queue is bound (the cron trigger then continues the job). */
export async function enqueueImport(deps: Deps, message: JobMessage, delaySeconds = 0): Promise<boolean> {
  if (!deps.jobs) return false
  await deps.jobs.send(message, delaySeconds)
  return true
}

/**
 * Sends a job's next queue message; without a queue binding, the job is left queued with a note that the
 * cron trigger continues it. Callers send only after releasing the import lock, so the consumer does not
 * find the lock still taken and wait `LOCK_RETRY_SECONDS` for nothing.
 */
export async function sendJobMessage(deps: Deps, scope: AppScope, job: ImportJob): Promise<ImportJob> {
  if (await enqueueImport(deps, { app: scope.app.id, job: job.id })) return job
  const now = toTimestamp(deps.now())
  await scope.db.execute(updateJobStatement(scope, job.id, { status: 'queued', message: NO_QUEUE_MESSAGE }, now))
  return { ...job, status: 'queued', message: NO_QUEUE_MESSAGE, updated_at: now }
}
