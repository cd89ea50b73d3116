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
import { decodePluginSettings, readPluginSettings } from '../plugins/plugin-settings.ts'
import type { Plugin } from '../plugins/plugin.ts'
import type { LogStore } from '../intake/log-store.ts'

/** How often progress rows are written and the lock renewed while a run works (milliseconds). */
const PROGRESS_INTERVAL_MS = 1000
const RENEW_INTERVAL_MS = 30_000

/**
 * Sets up one import run under a held lock: the allow-list, import version, failure rows and the switches of
 * plugins with an `afterIngest` hook are read once (one round trip), and progress goes to the job's row (when
 * the run belongs to a job) at most once a second, renewing the lock as it goes.
 */
export async function createImportContext(
  deps: Deps,
  scope: AppScope,
  logs: LogStore,
  lock: ImportLock,
  job?: { readonly id: number; readonly bytesBefore: number },
): Promise<ImportContext> {
  const hooked = afterIngestPlugins(deps.plugins)
  const { stored, failed, switches } = await namedBatch(
    scope.db,
    { stored: appSettings.read(scope, SEVERITIES_KEY), failed: selectFailures(scope), switches: hooked.length > 0 ? readPluginSettings(scope, hooked) : null },
    { mode: 'read' },
  )
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
    pluginSettings: switches ? decodePluginSettings(hooked, switches.rows) : null,
    progress,
  }
}

/**
 * What follows a run that left nothing pending (reference §2.6 `finalize`, §6): occurrence retention
 * (self-throttled) and, for incoming imports, the archive's retention rules. The plugins' `afterIngest`
 * hooks run afterwards (`runAfterIngestHooks`), once the caller's own writes are done.
 */
export async function finalizeImport(ctx: ImportContext, deps: Deps, pruneArchive: boolean): Promise<ProcessedPruneResult | null> {
  const { scope, logs } = ctx
  await pruneOccurrences(scope, occurrencePolicy(deps), deps.now())
  return pruneArchive ? await pruneProcessed(logs, scope.app.id, processedPolicy(deps), deps.now()) : null
}

/**
 * The plugins' `afterIngest` hooks for a finished import (`events`: occurrences it stored), isolated: a failing
 * hook is recorded, never thrown. Called as the request's or job's last database work, so what a hook defers
 * past the response (`waitUntil`) starts after it and is not counted in the request's round trips. The
 * switches were read with the run's settings: no read here.
 */
export async function runAfterIngestHooks(ctx: ImportContext, deps: Deps, events: number): Promise<void> {
  if (!ctx.pluginSettings) return
  const { scope } = ctx
  const now = deps.now()
  const plugins = afterIngestPlugins(deps.plugins)
  await runPluginHook({ plugins, scope, hook: 'afterIngest', now, settings: ctx.pluginSettings, call: (hooks) => hooks.afterIngest?.({ scope, now, via: 'file', events, services: deps }) })
}

/** The active plugins with an `afterIngest` hook (the ones a finished import runs). */
function afterIngestPlugins(plugins: readonly Plugin[]): readonly Plugin[] {
  return plugins.filter((plugin) => plugin.status === 'active' && plugin.hooks?.afterIngest)
}
