import { setValues } from '../../drivers/dialect/dialect.ts'
import type { SqlValue, Statement } from '../../drivers/driver.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { readRow } from '../../drivers/read-row.ts'
import { raw, sql } from '../../drivers/sql.ts'
import { CONNECTOR_MESSAGES, CONNECTOR_RUN_STATUSES, type ConnectorRun } from '../../shared/schemas/connectors.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { toTimestamp } from '../time.ts'

/** A run still `running` without progress for this long is reaped on read (reference §6 "connector-runs": 900 s). */
export const STALE_RUN_SECONDS = 900

const COLUMNS = `r.id, r.connector_id, r.status, r.files_discovered, r.files_completed, r.files_updated, r.bytes_total, r.bytes_fetched, r.events_indexed,
  r.current_file, r.message, r.started_at, r.updated_at, r.finished_at`
const SHAPE = {
  id: 'number', connector_id: 'number', status: CONNECTOR_RUN_STATUSES, files_discovered: 'number', files_completed: 'number', files_updated: 'number', bytes_total: 'number',
  bytes_fetched: 'number', events_indexed: 'number', current_file: 'string?', message: 'string?', started_at: 'string?', updated_at: 'string', finished_at: 'string?',
} as const

/** A run as the synchronization works with it. */
export interface RunRecord {
  readonly id: number
  readonly connector_id: number
  readonly status: ConnectorRun['status']
  readonly files_discovered: number
  readonly files_completed: number
  readonly files_updated: number
  readonly bytes_total: number
  readonly bytes_fetched: number
  readonly events_indexed: number
  readonly expected_snapshot: string | null
  /** How many queue messages have worked on it (0: not started; the snapshot is compared on the first). */
  readonly steps: number
}

export type RunChanges = Partial<Record<'status' | 'files_discovered' | 'files_completed' | 'files_updated' | 'bytes_total' | 'bytes_fetched' | 'events_indexed' | 'current_file' | 'message' | 'started_at' | 'finished_at', SqlValue>>

export function updateRunStatement(scope: AppScope, id: number, changes: RunChanges, now: string): Statement {
  return sql`UPDATE ${raw(scope.t.connectorRuns)} SET ${setValues({ ...changes, updated_at: now })} WHERE id = ${id}`
}

export async function readRun(scope: AppScope, id: number): Promise<RunRecord | null> {
  const { rows } = await scope.db.execute({
    sql: `SELECT id, connector_id, status, files_discovered, files_completed, files_updated, bytes_total, bytes_fetched, events_indexed, expected_snapshot, steps
      FROM ${scope.t.connectorRuns} WHERE id = ?`,
    args: [id],
  })
  if (!rows[0]) return null
  return readRow(
    rows[0],
    {
      id: 'number', connector_id: 'number', status: CONNECTOR_RUN_STATUSES, files_discovered: 'number', files_completed: 'number', files_updated: 'number',
      bytes_total: 'number', bytes_fetched: 'number', events_indexed: 'number', expected_snapshot: 'string?', steps: 'number',
    },
    'connector run',
  )
}

/** A queued run of a connector (its first queue message is sent by the caller). */
export async function createRun(scope: AppScope, connectorId: number, snapshot: string | null, now: string): Promise<number> {
  const inserted = await scope.db.execute({
    sql: `INSERT INTO ${scope.t.connectorRuns} (connector_id, status, expected_snapshot, updated_at) VALUES (?, 'queued', ?, ?)${scope.db.dialect.returningId}`,
    args: [connectorId, snapshot, now],
  })
  return Number(inserted.lastInsertId)
}

/** Marks running runs without progress for STALE_RUN_SECONDS failed (the reference reaps on read). */
function reapStatement(scope: AppScope, now: Date): Statement {
  const cutoff = toTimestamp(new Date(now.getTime() - STALE_RUN_SECONDS * 1000))
  const at = toTimestamp(now)
  return {
    sql: `UPDATE ${scope.t.connectorRuns} SET status = 'failed', message = ?, finished_at = ?, updated_at = ? WHERE status = 'running' AND updated_at < ?`,
    args: [CONNECTOR_MESSAGES.stale, at, at, cutoff],
  }
}

/** `GET ?api=connectors-runs&limit=25`: newest first, stale runs reaped first (one round trip). */
export async function listRuns(scope: AppScope, limit: number, now: Date, connectorId?: number): Promise<ConnectorRun[]> {
  const { t } = scope
  const { runs } = await namedBatch(scope.db, {
    reap: reapStatement(scope, now),
    runs: {
      sql: `SELECT ${COLUMNS}, c.name AS connector_name, c.type AS connector_type FROM ${t.connectorRuns} r JOIN ${t.connectors} c ON c.id = r.connector_id
        ${connectorId === undefined ? '' : 'WHERE r.connector_id = ?'} ORDER BY r.id DESC LIMIT ?`,
      args: connectorId === undefined ? [limit] : [connectorId, limit],
    },
  })
  return runs.rows.map((row) => readRow(row, { ...SHAPE, connector_name: 'string', connector_type: 'string' }, 'connector run'))
}
