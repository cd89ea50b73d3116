import type { ImportResponse } from '../../shared/api.ts'
import type { AppScope } from '../apps/app-scope.ts'

export type { ImportResponse }
import type { Deps } from '../deps.ts'
import { toTimestamp } from '../time.ts'
import { createBudget } from './import-context.ts'
import { activeJob, createJob, type ImportJob, type ImportJobKind } from './import-jobs.ts'
import { withImportLock, type ImportLock } from './import-lock.ts'
import { sendJobMessage } from './import-message.ts'
import { presentResult, type ImportResult } from './import-result.ts'
import { runImport } from './import-run.ts'
import { createImportContext, finalizeImport } from './import-session.ts'

/** What a request-sized run leaves to do once the lock is released. */
export interface RequestRun {
  readonly response: ImportResponse
  /** A job this run created: its first queue message is sent after the lock is released (`importUnderLock`). */
  readonly created: ImportJob | null
}

/**
 * Runs `work` under the application's import lock (a held lock is the reference's 400) and only then starts
 * the background job it created. Sending the message while still holding the lock would let the consumer
 * pick it up, find the lock taken and wait `LOCK_RETRY_SECONDS` for nothing.
 */
export async function importUnderLock(deps: Deps, scope: AppScope, work: (lock: ImportLock) => Promise<RequestRun>): Promise<ImportResponse> {
  const run = await withImportLock(scope, deps.now(), work)
  return run.created ? { ...run.response, job: await sendJobMessage(deps, scope, run.created) } : run.response
}

/**
 * One request-sized run under a held lock. When it finishes everything, the import is finalized; when work
 * remains, a background job (Queue consumer) continues it — the application's active job when there is one.
 */
export async function runRequestImport(
  deps: Deps,
  scope: AppScope,
  bucket: R2Bucket,
  lock: ImportLock,
  options: { readonly kind: ImportJobKind; readonly scanIncoming: boolean },
): Promise<RequestRun> {
  const ctx = await createImportContext(deps, scope, bucket, lock)
  const outcome = await runImport(ctx, { scanIncoming: options.scanIncoming, budget: createBudget(ctx.limits.requestBudgetBytes, ctx.limits.requestSeconds) })
  const result = presentResult(ctx.result)
  if (outcome.remainingFiles > 0) {
    const { job, created } = await openBackgroundJob(deps, scope, options.kind, { files: outcome.remainingFiles, bytes: outcome.remainingBytes })
    return { response: { ...result, retention: null, job }, created: created ? job : null }
  }
  const retention = await finalizeImport(deps, scope, bucket, options.kind === 'import-incoming')
  await closeOpenJobs(scope, toTimestamp(deps.now()))
  return { response: { ...result, retention, job: null }, created: null }
}

/**
 * Nothing is pending any more, so a job still waiting (queued, or between two of its messages) has nothing
 * left to do: it is marked done, and its next message finds it finished.
 */
async function closeOpenJobs(scope: AppScope, now: string): Promise<void> {
  await scope.db.execute({
    sql: `UPDATE ${scope.t.importJobs} SET status = 'success', message = ?, current_file = NULL, finished_at = ?, updated_at = ? WHERE status IN ('queued', 'running')`,
    args: [COMPLETED_ELSEWHERE_MESSAGE, now, now],
  })
}

export const COMPLETED_ELSEWHERE_MESSAGE = 'Completed by a later import run.'

/** The application's active job, or a new one with its first queue message sent (for callers holding no lock). */
export async function continueInBackground(deps: Deps, scope: AppScope, kind: ImportJobKind, work: { files: number; bytes: number }): Promise<ImportJob> {
  const { job, created } = await openBackgroundJob(deps, scope, kind, work)
  return created ? sendJobMessage(deps, scope, job) : job
}

/** The application's active job, or a new queued one (`created`) whose first message is still to be sent. */
async function openBackgroundJob(deps: Deps, scope: AppScope, kind: ImportJobKind, work: { files: number; bytes: number }): Promise<{ job: ImportJob; created: boolean }> {
  const active = await activeJob(scope)
  if (active) return { job: active, created: false }
  return { job: await createJob(scope, kind, work, toTimestamp(deps.now())), created: true }
}
