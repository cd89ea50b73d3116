import { parseJson } from '../../drivers/dialect/dialect.ts'
import type { Statement } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { toTimestamp } from '../time.ts'
import type { ImportJob, ImportJobKind, ImportJobStatus } from '../../shared/api.ts'

export type { ImportJob, ImportJobKind, ImportJobStatus }



/** A job that stops updating for this long is marked failed (the reference's 900 s stale-run rule, §6). */
export const STALE_JOB_SECONDS = 900
export const STALE_JOB_MESSAGE = 'The import worker stopped responding; marked interrupted after timeout. Run the import again to resume it.'

const COLUMNS = 'id, kind, status, files_total, files_done, bytes_total, bytes_done, events, current_file, message, result, created_at, started_at, updated_at, finished_at'

export async function createJob(scope: AppScope, kind: ImportJobKind, work: { files: number; bytes: number }, now: string): Promise<ImportJob> {
  const { t, db } = scope
  const inserted = await db.execute({
    sql: `INSERT INTO ${t.importJobs} (kind, status, files_total, bytes_total, created_at, updated_at) VALUES (?, 'queued', ?, ?, ?, ?)${db.dialect.returningId}`,
    args: [kind, work.files, work.bytes, now, now],
  })
  return (await readJob(scope, Number(inserted.lastInsertId)))!
}

export async function readJob(scope: AppScope, id: number): Promise<ImportJob | null> {
  const { rows } = await scope.db.execute({ sql: `SELECT ${COLUMNS} FROM ${scope.t.importJobs} WHERE id = ?`, args: [id] })
  return rows[0] ? toJob(rows[0]) : null
}

/** The newest job still queued or running, if any. */
export async function activeJob(scope: AppScope): Promise<ImportJob | null> {
  const { rows } = await scope.db.execute({
    sql: `SELECT ${COLUMNS} FROM ${scope.t.importJobs} WHERE status IN ('queued', 'running') ORDER BY id DESC LIMIT 1`,
  })
  return rows[0] ? toJob(rows[0]) : null
}

/** Marks jobs that stopped reporting as failed, then returns the newest `limit` jobs — one round trip. */
export async function reapAndListJobs(scope: AppScope, now: Date, limit = 25): Promise<ImportJob[]> {
  const results = await scope.db.batch([reapStatement(scope, now), { sql: `SELECT ${COLUMNS} FROM ${scope.t.importJobs} ORDER BY id DESC LIMIT ?`, args: [limit] }])
  return results[1]!.rows.map(toJob)
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

function toJob(row: Record<string, unknown>): ImportJob {
  const number = (key: string) => Number(row[key] ?? 0)
  return {
    ...(row as unknown as ImportJob),
    id: number('id'),
    files_total: number('files_total'),
    files_done: number('files_done'),
    bytes_total: number('bytes_total'),
    bytes_done: number('bytes_done'),
    events: number('events'),
    result: parseJson(row.result, null),
  }
}
