import { readRow } from '../../drivers/read-row.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import type { AppScope } from '../apps/app-scope.ts'
import type { Deps } from '../deps.ts'
import { toTimestamp } from '../time.ts'
import { startRuns } from './connector-actions.ts'
import { runConnectorJob } from './connector-run.ts'

/**
 * The cron trigger's share of connectors (issue 15 "Scheduled sync"): every enabled connector with a
 * `sync_interval_minutes` whose last synchronization is at least that long ago, and that has no run queued or
 * running, gets a run (no snapshot: nothing was previewed). With a queue bound the runs go there; without one
 * (Deno without its in-process queue, a worker without IMPORT_QUEUE) every queued run takes one step right here.
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
      queued: deps.jobs ? null : { sql: `SELECT id FROM ${t.connectorRuns} WHERE status = 'queued' ORDER BY id` },
    },
    { mode: 'read' },
  )
  const now = deps.now()
  const due = connectors.rows
    .map((row) => readRow(row, { id: 'number', sync_interval_minutes: 'number', last_synced_at: 'string?', active: 'number' }, 'scheduled connector'))
    .filter((row) => row.active === 0 && (row.last_synced_at === null || row.last_synced_at <= toTimestamp(new Date(now.getTime() - row.sync_interval_minutes * 60_000))))
  const started = due.length > 0 ? (await startRuns(deps, scope, due.map((row) => ({ id: row.id, snapshot: null })), toTimestamp(now))).run_ids : []
  if (!deps.jobs) {
    const waiting = [...(queued?.rows.map((row) => Number(row.id)) ?? []), ...started]
    for (const run of waiting) await runConnectorJob(deps, { app: scope.app.id, connector_run: run })
  }
  return started
}
