import type { ImportResponse } from '../../shared/api.ts'
import type { AppScope } from '../apps/app-scope.ts'

export type { ImportResponse }
import type { Deps } from '../deps.ts'
import { toTimestamp } from '../time.ts'
import { createBudget } from './import-context.ts'
import { openJob, type ImportJob, type ImportJobKind } from './job-records.ts'
import { acquireImportLock, IMPORT_RUNNING_MESSAGE, type ImportLock } from './import-lock.ts'
import { sendJobMessage } from './job-message.ts'
import { presentResult } from './import-result.ts'
import { runImport } from './run-import.ts'
import { createImportContext, finalizeImport, runAfterIngestHooks } from './import-session.ts'
import { stagedUploads, withStaged } from '../intake/pending-work.ts'
import { OperationalError } from '../errors.ts'
import type { LogStore } from '../intake/log-store.ts'

/** What a request-sized run leaves to do once the lock is released. */
export interface RequestRun {
  readonly response: ImportResponse
  /** A job this run created: its first queue message is sent after the lock is released (`importUnderLock`). */
  readonly created: ImportJob | null
  /** A finished import's `afterIngest` hooks: run as the request's last work (`importUnderLock`). */
  readonly hooks: (() => Promise<void>) | null
}

/**
 * Runs `work` under the application's import lock and only then starts the background job it created.
 * Sending the message while still holding the lock would let the consumer pick it up, find the lock taken and
 * wait `LOCK_RETRY_SECONDS` for nothing. When the lock is held elsewhere, `busy` answers instead (an upload is
 * accepted) or, without it, the reference's 400.
 */
export async function importUnderLock<T = ImportResponse>(
  deps: Deps,
  scope: AppScope,
  work: (lock: ImportLock) => Promise<RequestRun>,
  busy?: () => Promise<T>,
): Promise<ImportResponse | T> {
  const lock = await acquireImportLock(scope, deps.now())
  if (!lock) {
    if (busy) return busy()
    throw new OperationalError(IMPORT_RUNNING_MESSAGE)
  }
  let run: RequestRun
  try {
    run = await work(lock)
  } finally {
    await lock.release()
  }
  if (run.created) return { ...run.response, job: await sendJobMessage(deps, scope, run.created) }
  // A job still running picks up new uploads in its next step; a closed import must look once more.
  if (!run.response.job) await startStagedUploads(deps, scope)
  // Last, so what the hooks defer past the response (alert scans) starts after this request's own queries.
  await run.hooks?.()
  return run.response
}

/**
 * One request-sized run under a held lock. When it finishes everything, the import is finalized; when work
 * remains, a background job (Queue consumer) continues it — the application's active job when there is one.
 */
export async function runRequestImport(
  deps: Deps,
  scope: AppScope,
  logs: LogStore,
  lock: ImportLock,
  options: { readonly kind: ImportJobKind; readonly scanIncoming: boolean },
): Promise<RequestRun> {
  const ctx = await createImportContext(deps, scope, logs, lock)
  const outcome = await runImport(ctx, { scanIncoming: options.scanIncoming, budget: createBudget(ctx.limits.requestBudgetBytes, ctx.limits.requestSeconds) })
  const result = { ...presentResult(ctx.result), already_ingested: ctx.alreadyIngested }
  if (outcome.remainingFiles > 0) {
    const { job, created } = await openBackgroundJob(deps, scope, options.kind, { files: outcome.remainingFiles, bytes: outcome.remainingBytes })
    return { response: { ...result, retention: null, job }, created: created ? job : null, hooks: null }
  }
  const retention = await finalizeImport(ctx, deps, options.kind === 'import-incoming')
  await closeOpenJobs(scope, toTimestamp(deps.now()))
  return { response: { ...result, retention, job: null }, created: null, hooks: () => runAfterIngestHooks(ctx, deps, ctx.result.events) }
}

/**
 * The guarantee that no accepted upload is stranded (issue 10 defect 6). An upload that finds the lock taken
 * is stored first and makes sure a job exists (`continueInBackground`); every run registers staged uploads,
 * and a run counts those that arrived meanwhile as remaining work. What is left is the moment between a
 * run's last look and the release of its lock: a run that closed the import (no job continues) therefore
 * looks again after releasing the lock — an upload stored before a failed lock attempt is in that listing —
 * and starts a job for what it finds. One R2 list; a database round trip only when uploads are waiting.
 */
export async function startStagedUploads(deps: Deps, scope: AppScope): Promise<void> {
  const logs = deps.logs
  if (!logs) return
  const staged = await stagedUploads(logs, scope)
  if (staged.length > 0) await continueInBackground(deps, scope, 'import-incoming', withStaged({ files: 0, bytes: 0 }, staged))
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
function openBackgroundJob(deps: Deps, scope: AppScope, kind: ImportJobKind, work: { files: number; bytes: number }): Promise<{ job: ImportJob; created: boolean }> {
  return openJob(scope, kind, work, toTimestamp(deps.now()))
}
