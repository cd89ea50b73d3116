import type { AppScope } from '../apps/app-scope.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import type { Deps } from '../deps.ts'
import { occurrencePolicy, pruneOccurrences } from '../maintenance/occurrence-retention.ts'
import { processedPolicy, pruneProcessed, type ProcessedPruneResult } from '../maintenance/processed-retention.ts'
import { appSettings, settingValue } from '../settings/app-settings.ts'
import { importVersion, parseSeverities, SEVERITIES_KEY } from '../settings/ingestion-settings.ts'
import { toTimestamp } from '../time.ts'
import { importLimits } from './import-limits.ts'
import type { ImportContext, ProgressUpdate } from './import-context.ts'
import { updateJobStatement } from './job-records.ts'
import { selectFailures, toFailureRow } from './failed-files.ts'
import type { ImportLock } from './import-lock.ts'
import { emptyResult } from './import-result.ts'
import { runPluginHook } from '../plugins/run-plugin-hook.ts'
import type { LogStore } from '../intake/log-store.ts'

/** How often progress rows are written and the lock renewed while a run works (milliseconds). */
const PROGRESS_INTERVAL_MS = 1000
const RENEW_INTERVAL_MS = 30_000

/**
 * Sets up one import run under a held lock: the allow-list, import version and failure rows are read once (one
 * round trip), and progress goes to the job's row (when the run belongs to a job) at most once a second,
 * renewing the lock as it goes.
 */
export async function createImportContext(
  deps: Deps,
  scope: AppScope,
  logs: LogStore,
  lock: ImportLock,
  job?: { readonly id: number; readonly bytesBefore: number },
): Promise<ImportContext> {
  const { stored, failed } = await namedBatch(scope.db, { stored: appSettings.read(scope, SEVERITIES_KEY), failed: selectFailures(scope) }, { mode: 'read' })
  const severities = parseSeverities(settingValue(stored.rows))
  let lastProgress = 0
  let lastRenew = Date.now()
  const progress = async (update: ProgressUpdate) => {
    const at = Date.now()
    if (job && (update.boundary || at - lastProgress >= PROGRESS_INTERVAL_MS)) {
      lastProgress = at
      lastRenew = at
      const now = deps.now()
      await scope.db.batch([
        updateJobStatement(scope, job.id, { bytes_done: job.bytesBefore + update.bytes, current_file: update.file }, toTimestamp(now)),
        lock.renewStatement(now),
      ])
    } else if (at - lastRenew >= RENEW_INTERVAL_MS) {
      lastRenew = at
      await lock.renew(deps.now())
    }
  }
  return {
    scope,
    logs,
    now: () => deps.now(),
    severities,
    allowed: new Set(severities),
    version: importVersion(severities),
    limits: importLimits(deps),
    result: emptyResult(severities),
    touched: new Set(),
    alreadyIngested: [],
    failures: new Map(failed.rows.map((row) => { const failure = toFailureRow(row); return [failure.ref, failure] })),
    progress,
  }
}

/**
 * What follows a run that left nothing pending (reference §2.6 `finalize`, §6): occurrence retention
 * (self-throttled), for incoming imports the archive's retention rules, and the plugins' `afterIngest` hooks
 * (isolated: a failing hook is recorded, never thrown). `events`: occurrences the import stored.
 */
export async function finalizeImport(deps: Deps, scope: AppScope, logs: LogStore, pruneArchive: boolean, events: number): Promise<ProcessedPruneResult | null> {
  await pruneOccurrences(scope, occurrencePolicy(deps), deps.now())
  const retention = pruneArchive ? await pruneProcessed(logs, scope.app.id, processedPolicy(deps), deps.now()) : null
  const now = deps.now()
  await runPluginHook({ plugins: deps.plugins, scope, hook: 'afterIngest', now, call: (hooks) => hooks.afterIngest?.({ scope, now, via: 'file', events, services: deps }) })
  return retention
}
