import { parseJson } from '../../drivers/dialect/dialect.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { readRow } from '../../drivers/read-row.ts'
import type { Statement } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { toTimestamp } from '../time.ts'
import { IMPORT_JOB_KINDS, IMPORT_JOB_STATUSES, type ImportJob, type ImportJobKind, type ImportJobStatus } from '../../shared/api.ts'

export type { ImportJob, ImportJobKind, ImportJobStatus }



/** A job that stops updating for this long is marked failed (the reference's 900 s stale-run rule, §6). */
export const STALE_JOB_SECONDS = 900
export const STALE_JOB_MESSAGE = 'The import worker stopped responding; marked interrupted after timeout. Run the import again to resume it.'

const COLUMNS = 'id, kind, status, files_total, files_done, bytes_total, bytes_done, events, current_file, message, result, created_at, started_at, updated_at, finished_at'

/**
 * The application's active job (queued or running), or a new queued one when there is none (`created`: its
 * first message is still to be sent). The check and the insert are one statement, so uploads accepted at the
 * same moment share one job instead of making one each (on SQLite-backed drivers strictly; on PostgreSQL and
 * MySQL two transactions committing together can still both insert, which costs an extra job that finds its
 * work done). One round trip.
 */
export async function openJob(scope: AppScope, kind: ImportJobKind, work: { files: number; bytes: number }, now: string): Promise<{ job: ImportJob; created: boolean }> {
  const { t, db } = scope
  const source = db.dialect.jsonRecords({ kind: 'text', files: 'integer', bytes: 'integer', at: 'text' }, 'c')
  const { inserted, active } = await namedBatch(db, {
    inserted: {
      sql: `INSERT INTO ${t.importJobs} (kind, status, files_total, bytes_total, created_at, updated_at)
        SELECT c.kind, 'queued', c.files, c.bytes, c.at, c.at FROM ${source}
        WHERE NOT EXISTS (SELECT 1 FROM ${t.importJobs} a WHERE a.status IN ('queued', 'running'))${db.dialect.returningId}`,
      args: [JSON.stringify([{ kind, files: work.files, bytes: work.bytes, at: now }])],
    },
    active: { sql: `SELECT ${COLUMNS} FROM ${t.importJobs} WHERE status IN ('queued', 'running') ORDER BY id DESC LIMIT 1` },
  })
  const createdId = inserted.lastInsertId
  const newest = active.rows[0] ? toJob(active.rows[0]) : null
  if (createdId === undefined) {
    if (newest) return { job: newest, created: false }
    return openJob(scope, kind, work, now) // it finished between the two statements (READ COMMITTED): look again
  }
  return { job: newest?.id === createdId ? newest : (await readJob(scope, createdId))!, created: true }
}

export async function readJob(scope: AppScope, id: number): Promise<ImportJob | null> {
  const { rows } = await scope.db.execute({ sql: `SELECT ${COLUMNS} FROM ${scope.t.importJobs} WHERE id = ?`, args: [id] })
  return rows[0] ? toJob(rows[0]) : null
}

/** The newest `limit` jobs, newest first (run after `reapStatement` in the same batch). */
export function listJobsStatement(scope: AppScope, limit = 25): Statement {
  return { sql: `SELECT ${COLUMNS} FROM ${scope.t.importJobs} ORDER BY id DESC LIMIT ?`, args: [limit] }
}

export function reapStatement(scope: AppScope, now: Date): Statement {
  const cutoff = toTimestamp(new Date(now.getTime() - STALE_JOB_SECONDS * 1000))
  const at = toTimestamp(now)
  return {
    sql: `UPDATE ${scope.t.importJobs} SET status = 'failed', message = ?, finished_at = ?, updated_at = ? WHERE status IN ('queued', 'running') AND updated_at < ?`,
    args: [STALE_JOB_MESSAGE, at, at, cutoff],
  }
}

/** Any field of a job's progress row (only the given ones are written; `updated_at` always is). */
export interface JobUpdate {
  readonly status?: ImportJobStatus
  readonly files_total?: number
  readonly files_done?: number
  readonly bytes_total?: number
  readonly bytes_done?: number
  readonly events?: number
  readonly current_file?: string | null
  readonly message?: string | null
  readonly result?: unknown
  readonly started_at?: string
  readonly finished_at?: string
}

export function updateJobStatement(scope: AppScope, id: number, update: JobUpdate, now: string): Statement {
  const sets: string[] = []
  const args: (string | number | null)[] = []
  for (const [column, value] of Object.entries(update)) {
    if (value === undefined) continue
    sets.push(column === 'started_at' ? 'started_at = COALESCE(started_at, ?)' : `${column} = ?`)
    args.push(column === 'result' ? JSON.stringify(value) : (value as string | number | null))
  }
  return { sql: `UPDATE ${scope.t.importJobs} SET ${[...sets, 'updated_at = ?'].join(', ')} WHERE id = ?`, args: [...args, now, id] }
}

export function toJob(row: Record<string, unknown>): ImportJob {
  const job = readRow(
    row,
    {
      id: 'number', kind: IMPORT_JOB_KINDS, status: IMPORT_JOB_STATUSES, files_total: 'number', files_done: 'number', bytes_total: 'number', bytes_done: 'number',
      events: 'number', current_file: 'string?', message: 'string?', result: 'string?', created_at: 'string', started_at: 'string?', updated_at: 'string', finished_at: 'string?',
    },
    'import job',
  )
  return { ...job, result: parseJson(job.result, null) }
}
