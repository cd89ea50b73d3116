import type { ImportResponse } from '../../shared/api.ts'
import type { AppScope } from '../apps/app-scope.ts'

export type { ImportResponse }
import type { Deps } from '../deps.ts'
import { toTimestamp } from '../time.ts'
import { createBudget } from './import-context.ts'
import { activeJob, createJob, updateJobStatement, type ImportJob, type ImportJobKind } from './import-jobs.ts'
import type { ImportLock } from './import-lock.ts'
import { enqueueImport } from './import-message.ts'
import { NO_QUEUE_MESSAGE } from './import-job.ts'
import { presentResult, type ImportResult } from './import-result.ts'
import { runImport } from './import-run.ts'
import { createImportContext, finalizeImport } from './import-session.ts'

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
): Promise<ImportResponse> {
  const ctx = await createImportContext(deps, scope, bucket, lock)
  const outcome = await runImport(ctx, { scanIncoming: options.scanIncoming, budget: createBudget(ctx.limits.requestBudgetBytes, ctx.limits.requestSeconds) })
  const result = presentResult(ctx.result)
  if (outcome.remainingFiles > 0) {
    return { ...result, retention: null, job: await continueInBackground(deps, scope, options.kind, { files: outcome.remainingFiles, bytes: outcome.remainingBytes }) }
  }
  const retention = await finalizeImport(deps, scope, bucket, options.kind === 'import-incoming')
  await closeOpenJobs(scope, toTimestamp(deps.now()))
  return { ...result, retention, job: null }
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

/** The application's active job, or a new one with its first queue message sent. */
export async function continueInBackground(deps: Deps, scope: AppScope, kind: ImportJobKind, work: { files: number; bytes: number }): Promise<ImportJob> {
  const active = await activeJob(scope)
  if (active) return active
  const job = await createJob(scope, kind, work, toTimestamp(deps.now()))
  if (await enqueueImport(deps, { app: scope.app.id, job: job.id })) return job
  const now = toTimestamp(deps.now())
  await scope.db.execute(updateJobStatement(scope, job.id, { message: NO_QUEUE_MESSAGE }, now))
  return { ...job, message: NO_QUEUE_MESSAGE, updated_at: now }
}
