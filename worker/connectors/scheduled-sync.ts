import { readRow } from '../../drivers/read-row.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import type { AppScope } from '../apps/app-scope.ts'
import type { Deps } from '../deps.ts'
import { toTimestamp } from '../time.ts'
import { startRuns } from './connector-actions.ts'
import { runConnectorJob } from './connector-run.ts'
import { enqueueImport } from '../jobs/job-message.ts'

/** A queued run untouched this long has lost its queue message (a crash between insert and send): sent again. */
export const LOST_MESSAGE_MINUTES = 15

/**
 * The cron trigger's share of connectors (issue 15 "Scheduled sync"): every enabled connector with a
 * `sync_interval_minutes` whose last synchronization is at least that long ago, and that has no run queued or
 * running, gets a run (no snapshot: nothing was previewed). With a queue bound the runs go there (and a queued
 * run whose message was lost is sent again); without one (a worker without IMPORT_QUEUE) every queued run takes
 * one step right here.
 * One read when nothing is due.
 */
export async function syncDueConnectors(deps: Deps, scope: AppScope): Promise<readonly number[]> {
  const { t } = scope
  const { connectors, queued } = await namedBatch(
    scope.db,
    {
      connectors: {
        sql: `SELECT c.id, c.sync_interval_minutes, c.last_synced_at,
            (SELECT COUNT(*) FROM ${t.connectorRuns} r WHERE r.connector_id = c.id AND r.status IN ('queued', 'running')) AS active
          FROM ${t.connectors} c WHERE c.enabled = 1 AND c.sync_interval_minutes IS NOT NULL`,
      },
      // Without a queue every queued run waits for this trigger; with one, only a run whose message was lost
      // (queued, untouched for LOST_MESSAGE_MINUTES: a waiting run is touched at every lock retry) is sent again.
      queued: {
        sql: `SELECT id FROM ${t.connectorRuns} WHERE status = 'queued' AND updated_at <= ? ORDER BY id`,
        args: [toTimestamp(new Date(deps.now().getTime() - (deps.jobs ? LOST_MESSAGE_MINUTES * 60_000 : 0)))],
      },
    },
    { mode: 'read' },
  )
  const now = deps.now()
  const due = connectors.rows
    .map((row) => readRow(row, { id: 'number', sync_interval_minutes: 'number', last_synced_at: 'string?', active: 'number' }, 'scheduled connector'))
    .filter((row) => row.active === 0 && (row.last_synced_at === null || row.last_synced_at <= toTimestamp(new Date(now.getTime() - row.sync_interval_minutes * 60_000))))
  const started = due.length > 0 ? (await startRuns(deps, scope, due.map((row) => ({ id: row.id, snapshot: null })), toTimestamp(now))).run_ids : []
  const waiting = queued.rows.map((row) => Number(row.id))
  if (deps.jobs) {
    for (const run of waiting) await enqueueImport(deps, { app: scope.app.id, connector_run: run })
  } else {
    for (const run of [...waiting, ...started]) await runConnectorJob(deps, { app: scope.app.id, connector_run: run })
  }
  return started
}
