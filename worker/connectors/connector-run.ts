import { namedBatch } from '../../drivers/named-batch.ts'
import { CONNECTOR_MESSAGES } from '../../shared/schemas/connectors.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { openScopeIfRegistered } from '../apps/open-scope.ts'
import type { Deps } from '../deps.ts'
import { AppError, OperationalError } from '../errors.ts'
import { STORAGE_MISSING_MESSAGE } from '../intake/log-storage.ts'
import type { LogStore } from '../intake/log-store.ts'
import { createBudget, type ImportContext, type ProgressUpdate } from '../jobs/import-context.ts'
import { acquireImportLock, type ImportLock } from '../jobs/import-lock.ts'
import { createImportContext, finalizeImport, runAfterIngestHooks } from '../jobs/import-session.ts'
import { enqueueImport, type ConnectorRunMessage } from '../jobs/job-message.ts'
import { startStagedUploads } from '../jobs/request-import.ts'
import { runImport } from '../jobs/run-import.ts'
import { logFailure } from '../log-failure.ts'
import { toTimestamp } from '../time.ts'
import { planConnector } from './connector-plan.ts'
import { readRun, updateRunStatement, type RunChanges, type RunRecord } from './connector-runs.ts'
import { CONNECTOR_COLUMNS, openConnector } from './connectors.ts'
import { CONNECTORS_SECTION } from './connectors-config.ts'
import { mirrorEntry } from './mirror-file.ts'

/** While an import or another synchronization holds the application's lock, a run's message comes back after this. */
export const CONNECTOR_LOCK_RETRY_SECONDS = 2
export const RUN_FAILED_MESSAGE = 'The synchronization stopped on an unexpected error; the details are in the server log. Synchronize again to resume it.'
const PROGRESS_INTERVAL_MS = 1000

/**
 * One queue message of a synchronization run (reference §6 "connector-sync", steps 1–8), under the application's
 * import lock — the lock every import takes, so a run and an upload never digest the same file at once, and two
 * runs of one connector never fetch the same bytes twice (issue 15: exactly-once counts):
 * 1. supersede the connector's other queued or running runs;
 * 2. plan again; on the run's first step, refuse a plan whose snapshot differs from the confirmed preview;
 * 3. mirror every line of the plan (mirror-file.ts) until the job's time is up;
 * 4. digest what is pending with the existing resumable import (run-import.ts), finalized once at the end;
 * 5. record success or failure on the run and the connector.
 * Work left over (time, or the import's byte budget) continues in the run's next message. Returns `locked` when
 * the lock is held elsewhere.
 */
export async function runConnectorJob(deps: Deps, message: ConnectorRunMessage): Promise<'done' | 'locked'> {
  const scope = await openScopeIfRegistered(deps, message.app)
  if (!scope) return 'done'
  const run = await readRun(scope, message.connector_run)
  if (!run || run.status === 'success' || run.status === 'failed') return 'done'
  const stamp = () => toTimestamp(deps.now())
  if (!deps.logs) {
    await finishRun(scope, run, 'failed', STORAGE_MISSING_MESSAGE, stamp())
    return 'done'
  }
  const lock = await acquireImportLock(scope, deps.now())
  if (!lock) {
    await scope.db.execute(updateRunStatement(scope, run.id, {}, stamp())) // alive: keep the reaper away
    return 'locked'
  }
  let step: Step = { outcome: 'closed', hooks: null }
  try {
    const current = await readRun(scope, run.id)
    if (current && (current.status === 'queued' || current.status === 'running')) step = await runStep(deps, scope, current, deps.logs, lock)
  } finally {
    await lock.release()
  }
  if (step.outcome === 'continues' && !(await enqueueImport(deps, message))) {
    await scope.db.execute(updateRunStatement(scope, run.id, { status: 'queued', message: CONNECTOR_MESSAGES.noQueue }, stamp()))
  }
  if (step.outcome === 'closed') await startStagedUploads(deps, scope)
  await step.hooks?.()
  return 'done'
}

interface Step {
  readonly outcome: 'continues' | 'closed' | 'failed'
  readonly hooks: (() => Promise<void>) | null
}

async function runStep(deps: Deps, scope: AppScope, run: RunRecord, logs: LogStore, lock: ImportLock): Promise<Step> {
  const { t } = scope
  const stamp = () => toTimestamp(deps.now())
  const settings = deps.config.section(CONNECTORS_SECTION)
  try {
    const { connector: row } = await namedBatch(scope.db, {
      supersede: {
        sql: `UPDATE ${t.connectorRuns} SET status = 'failed', message = ?, finished_at = ?, updated_at = ? WHERE connector_id = ? AND id <> ? AND status IN ('queued', 'running')`,
        args: [CONNECTOR_MESSAGES.superseded, stamp(), stamp(), run.connector_id, run.id],
      },
      running: {
        sql: `UPDATE ${t.connectorRuns} SET status = 'running', message = NULL, steps = steps + 1, started_at = COALESCE(started_at, ?), updated_at = ? WHERE id = ?`,
        args: [stamp(), stamp(), run.id],
      },
      connector: { sql: `SELECT ${CONNECTOR_COLUMNS} FROM ${t.connectors} WHERE id = ?`, args: [run.connector_id] },
    })
    const policy = { allowLocalTargets: settings.allow_local_targets, timeoutMs: settings.timeout_ms, chunkBytes: settings.chunk_bytes }
    const connector = await openConnector(scope, deps.secrets, row.rows[0], policy)
    const plan = await planConnector(scope, connector, connector.source)
    if (run.steps === 0 && run.expected_snapshot !== null && plan.snapshot !== run.expected_snapshot) throw new OperationalError(CONNECTOR_MESSAGES.planChanged)

    const base = await createImportContext(deps, scope, logs, lock)
    const counters = { files_completed: run.files_completed, files_updated: run.files_updated, bytes_fetched: run.bytes_fetched }
    let lastProgress = 0
    const progress = async (file: string, boundary: boolean) => {
      if (!boundary && Date.now() - lastProgress < PROGRESS_INTERVAL_MS) return
      lastProgress = Date.now()
      await scope.db.batch([updateRunStatement(scope, run.id, { ...counters, current_file: file }, stamp()), lock.renewStatement(deps.now())])
    }
    const ctx: ImportContext = { ...base, progress: (update: ProgressUpdate) => progress(update.file, update.boundary) }
    const budget = createBudget(ctx.limits.jobBudgetBytes, ctx.limits.jobSeconds)
    await scope.db.execute(
      updateRunStatement(scope, run.id, { files_discovered: plan.files.length, bytes_total: run.bytes_fetched + plan.summary.bytes_to_fetch }, stamp()),
    )
    let unfinished = false
    for (const entry of plan.entries) {
      if (!entry.will_sync) continue
      if (Date.now() >= budget.deadline) {
        unfinished = true
        break
      }
      const outcome = await mirrorEntry(ctx, entry, {
        connectorId: connector.id,
        moduleId: connector.moduleId,
        source: connector.source,
        chunkBytes: settings.chunk_bytes,
        onFetched: async (bytes, path) => {
          counters.bytes_fetched += bytes
          await progress(path, false)
        },
      })
      counters.files_completed++
      if (outcome.updated) counters.files_updated++
      await progress(entry.path, true)
    }
    const imported = await runImport(ctx, { scanIncoming: false, budget })
    const events = run.events_indexed + ctx.result.events
    if (unfinished || imported.remainingFiles > 0) {
      await scope.db.execute(updateRunStatement(scope, run.id, { ...counters, events_indexed: events, status: 'running' }, stamp()))
      return { outcome: 'continues', hooks: null }
    }
    await finalizeImport(ctx, deps, false)
    const now = stamp()
    await namedBatch(scope.db, {
      run: updateRunStatement(scope, run.id, { ...counters, events_indexed: events, status: 'success', current_file: null, message: importMessage(ctx), finished_at: now }, now),
      connector: { sql: `UPDATE ${t.connectors} SET last_status = 'success', last_error = NULL, last_synced_at = ? WHERE id = ?`, args: [now, run.connector_id] },
    })
    return { outcome: 'closed', hooks: () => runAfterIngestHooks(ctx, deps, events) }
  } catch (error) {
    if (!(error instanceof AppError)) logFailure(`connector run ${scope.app.id}#${run.id} failed`, error)
    await finishRun(scope, run, 'failed', error instanceof AppError ? error.message : RUN_FAILED_MESSAGE, stamp())
    return { outcome: 'failed', hooks: null }
  }
}

/** Files the import could not read are named on the run (the run itself succeeded: they are retried later). */
function importMessage(ctx: ImportContext): string | null {
  const errors = ctx.result.errors
  return errors.length > 0 ? errors.join('\n').slice(0, 4000) : null
}

async function finishRun(scope: AppScope, run: Pick<RunRecord, 'id' | 'connector_id'>, status: 'failed', message: string, now: string): Promise<void> {
  const changes: RunChanges = { status, message: message.slice(0, 4000), finished_at: now }
  await namedBatch(scope.db, {
    run: updateRunStatement(scope, run.id, changes, now),
    connector: { sql: `UPDATE ${scope.t.connectors} SET last_status = 'failed', last_error = ?, last_synced_at = ? WHERE id = ?`, args: [message.slice(0, 4000), now, run.connector_id] },
  })
}
