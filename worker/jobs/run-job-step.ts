import type { AppScope } from '../apps/app-scope.ts'
import { AppError } from '../errors.ts'
import type { Deps } from '../deps.ts'
import { toTimestamp } from '../time.ts'
import { createBudget } from './import-context.ts'
import { readJob, updateJobStatement, type ImportJob } from './job-records.ts'
import { acquireImportLock, type ImportLock } from './import-lock.ts'
import { sendJobMessage, type ImportMessage } from './job-message.ts'
import { emptyResult, mergeResults, presentResult } from './import-result.ts'
import { runImport } from './run-import.ts'
import { createImportContext, finalizeImport, runAfterIngestHooks } from './import-session.ts'
import { startStagedUploads } from './request-import.ts'
import { STORAGE_MISSING_MESSAGE } from '../intake/log-storage.ts'
import { openScopeIfRegistered } from '../apps/open-scope.ts'
import { logFailure } from '../log-failure.ts'
import type { LogStore } from '../intake/log-store.ts'

export const JOB_FAILED_MESSAGE = 'The import stopped on an unexpected error; the details are in the server log. Run the import again to resume it.'

/**
 * One step of a background import: under the application's lock, read pending files for one job budget,
 * then either finalize the import and mark the job done, or — once the lock is released — send the job's
 * next message (work remains). Progress and the accumulated result are kept on the job's row. Returns
 * `locked` when another run holds the lock.
 */
export async function runImportJob(deps: Deps, message: ImportMessage): Promise<'done' | 'locked'> {
  const scope = await openScopeIfRegistered(deps, message.app)
  if (!scope) return 'done' // the application is gone
  const job = await readJob(scope, message.job)
  if (!job || job.status === 'success' || job.status === 'failed') return 'done'
  const stamp = () => toTimestamp(deps.now())
  const logs = deps.logs
  if (!logs) {
    await scope.db.execute(updateJobStatement(scope, job.id, { status: 'failed', message: STORAGE_MISSING_MESSAGE, finished_at: stamp() }, stamp()))
    return 'done'
  }
  const lock = await acquireImportLock(scope, deps.now())
  if (!lock) {
    await scope.db.execute(updateJobStatement(scope, job.id, {}, stamp())) // still alive: keep the reaper away
    return 'locked'
  }
  let step: StepOutcome = 'closed'
  try {
    // Read again under the lock: another message of the same job may have run a step meanwhile.
    const current = await readJob(scope, job.id)
    if (current && current.status !== 'success' && current.status !== 'failed') step = await runJobStep(deps, scope, current, logs, lock)
  } finally {
    await lock.release()
  }
  if (step === 'continues') await sendJobMessage(deps, scope, job)
  // The job's next step registers new uploads; a job that closed looks once more (conclude-run.ts). A job
  // that failed does not: its failure would repeat in a job started now (the cron trigger resumes later).
  if (step === 'closed') await startStagedUploads(deps, scope)
  return 'done'
}

type StepOutcome = 'continues' | 'closed' | 'failed'

/**
 * Reads one job budget under the held lock and records the outcome on the job's row: `continues` when work
 * remains (the row says `running` until the next message, or the note that no queue is bound, is in place),
 * `closed` when the import is finished, `failed` when the step threw.
 */
async function runJobStep(deps: Deps, scope: AppScope, job: ImportJob, logs: LogStore, lock: ImportLock): Promise<StepOutcome> {
  const stamp = () => toTimestamp(deps.now())
  try {
    await scope.db.execute(updateJobStatement(scope, job.id, { status: 'running', started_at: stamp() }, stamp()))
    const ctx = await createImportContext(deps, scope, logs, lock, { id: job.id, bytesBefore: job.bytes_done })
    const outcome = await runImport(ctx, { scanIncoming: false, budget: createBudget(ctx.limits.jobBudgetBytes, ctx.limits.jobSeconds) })
    const part = presentResult(ctx.result)
    const merged = {
      ...presentResult(mergeResults(job.result ?? emptyResult(ctx.severities), part)),
      already_ingested: [...(job.result?.already_ingested ?? []), ...ctx.alreadyIngested],
    }
    const bytesDone = job.bytes_done + outcome.bytesRead
    const progress = { bytes_done: bytesDone, files_done: job.files_done + outcome.completedFiles, events: merged.events }
    if (outcome.remainingFiles > 0) {
      await scope.db.execute(updateJobStatement(scope, job.id, { ...progress, result: merged, bytes_total: bytesDone + outcome.remainingBytes, status: 'running', message: null }, stamp()))
      return 'continues'
    }
    const retention = await finalizeImport(ctx, deps, job.kind === 'import-incoming')
    await scope.db.execute(
      updateJobStatement(scope, job.id, { ...progress, result: { ...merged, retention }, bytes_total: bytesDone, status: 'success', current_file: null, message: null, finished_at: stamp() }, stamp()),
    )
    await runAfterIngestHooks(ctx, deps, merged.events)
    return 'closed'
  } catch (error) {
    if (!(error instanceof AppError)) logFailure(`import job ${scope.app.id}#${job.id} failed`, error)
    await scope.db.execute(
      updateJobStatement(scope, job.id, { status: 'failed', message: error instanceof AppError ? error.message : JOB_FAILED_MESSAGE, finished_at: stamp() }, stamp()),
    )
    return 'failed'
  }
}
