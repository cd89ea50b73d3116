import type { AppScope } from '../apps/app-scope.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import type { Deps } from '../deps.ts'
import { continueInBackground } from '../jobs/request-import.ts'
import { reapStatement } from '../jobs/job-records.ts'
import { runImportJob } from '../jobs/run-job-step.ts'
import { acquireImportLock } from '../jobs/import-lock.ts'
import { countRow, pendingFilesStatement, stagedUploads, withStaged } from '../intake/pending-work.ts'
import { occurrencePolicy, pruneOccurrences } from './occurrence-retention.ts'
import { runPluginHook } from '../plugins/run-plugin-hook.ts'
import { syncDueConnectors } from '../connectors/scheduled-sync.ts'
import { backfillSearchSignatures } from '../issues/search-signature-backfill.ts'

/**
 * One application's share of the cron trigger: stale jobs are reaped; files left half-read (an interrupted
 * request, a lost queue message) and uploads still waiting to be archived get a background job; without a
 * queue binding the job's next step runs right here; and occurrence retention runs (self-throttled to once
 * per 900 s, under the import lock). Connectors whose sync interval has passed get a run (scheduled-sync.ts). Plugins' `maintain` hooks run in between (HTTP ingest digests what waits), then a share of the missing search signatures.
 */
export async function maintainApplication(deps: Deps, scope: AppScope): Promise<void> {
  const { pendingFiles } = await namedBatch(scope.db, { reap: reapStatement(scope, deps.now()), pendingFiles: pendingFilesStatement(scope) })
  // Uploads accepted while another import ran are pending too (their import may have crashed before them).
  const pending = withStaged(countRow(pendingFiles.rows[0]), deps.logs ? await stagedUploads(deps.logs, scope) : [])
  if (pending.files > 0 && deps.logs) {
    const job = await continueInBackground(deps, scope, 'resume', pending)
    if (!deps.jobs) await runImportJob(deps, { app: scope.app.id, job: job.id })
  }
  await syncDueConnectors(deps, scope)
  await runPluginHook({ plugins: deps.plugins, scope, hook: 'maintain', now: deps.now(), call: (hooks) => hooks.maintain?.({ scope, now: deps.now(), plugins: deps.plugins, services: deps }) })
  // Issues without a search signature (older than migration 0021 on SQLite, 0023 on MySQL; or manual issues on MySQL) get theirs, a share per run.
  await backfillSearchSignatures(scope)
  // Retention deletes: never alongside an import's batches. A busy lock just means next time.
  const policy = occurrencePolicy(deps)
  if (policy.maxAgeDays <= 0 && policy.maxPerGroup <= 0) return
  const lock = await acquireImportLock(scope, deps.now())
  if (!lock) return
  try {
    await pruneOccurrences(scope, policy, deps.now())
  } finally {
    await lock.release()
  }
}
