import type { FailedImport } from '../../shared/api.ts'
import { readRow } from '../../drivers/read-row.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { DriverError } from '../../drivers/driver-error.ts'
import { DatabaseConfigError } from '../../drivers/index.ts'
import type { Statement } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { AppError } from '../errors.ts'
import { toTimestamp } from '../time.ts'
import type { ImportContext } from './import-context.ts'
import { sha256Bytes } from '../intake/sha256-bytes.ts'
import { logFailure } from '../log-failure.ts'

export type { FailedImport }

/**
 * Issue 10 defect 3: one bad file must never block an application. A file (or an R2 object that could not
 * be archived) whose import throws gets a row in `import_failures` with its attempts and last error; at
 * `ingestion.max_file_attempts` it is set aside (`failed_at`): runs skip it, `GET ?api=import-incoming` lists
 * it under `failed`, and `POST {"retry": id}` or a re-upload of the same path gives it fresh attempts.
 * Rows are read once per run (`selectFailures`, in the run's first batch) and written only when something
 * fails, or succeeds after failing, so a healthy import pays no round trip for this.
 */
export interface FailureRow {
  readonly id: number
  /** `file:<source id>` or `object:<sha256 of the R2 key>` (keys are up to 1 KB; the hash keeps the index small). */
  readonly ref: string
  readonly source_file_id: number | null
  readonly path: string
  /** The object's etag when it failed: an object replaced under the same key starts again. */
  readonly etag: string | null
  readonly attempts: number
  readonly error: string
  readonly failed_at: string | null
}

/** What failed: enough to key its row and show it. */
export interface FailureSubject {
  readonly ref: string
  readonly path: string
  readonly sourceFileId: number | null
  readonly etag: string | null
}

export const fileRef = (id: number): string => `file:${id}`

export async function objectRef(key: string): Promise<string> {
  return `object:${await sha256Bytes(new TextEncoder().encode(key))}`
}

export const FILE_DATABASE_ERROR = 'The database refused the events of this file; the details are in the server log.'
export const FILE_UNEXPECTED_ERROR = 'Importing this file failed on an unexpected error; the details are in the server log.'

/**
 * Failures that are not the file's fault — the database unreachable, too slow or misconfigured — end the
 * run instead (the next run resumes from the checkpoints); counting them would set healthy files aside
 * during an outage.
 */
export function isOutage(error: unknown): boolean {
  if (error instanceof DriverError) return error.code === 'connection' || error.code === 'timeout'
  return error instanceof DatabaseConfigError
}

/** The message shown for a failed file: an application error's own text, otherwise a fixed one (design.md §4). */
export function failureMessage(error: unknown): string {
  if (error instanceof AppError) return error.message
  logFailure('importing a file failed', error)
  return error instanceof DriverError ? FILE_DATABASE_ERROR : FILE_UNEXPECTED_ERROR
}

const COLUMNS = 'id, ref, source_file_id, path, etag, attempts, error, failed_at'

export function selectFailures(scope: AppScope): Statement {
  return { sql: `SELECT ${COLUMNS} FROM ${scope.t.importFailures}` }
}

export function toFailureRow(row: Record<string, unknown>): FailureRow {
  return readRow(row, { id: 'number', ref: 'string', source_file_id: 'number?', path: 'string', etag: 'string?', attempts: 'number', error: 'string', failed_at: 'string?' }, 'import failure')
}

/** Set aside: skipped by runs until retried (an object replaced under its key is a new object). */
export function isSetAside(row: FailureRow | undefined, etag: string | null = null): boolean {
  return row !== undefined && row.failed_at !== null && (row.source_file_id !== null || row.etag === etag)
}

/** SQL condition: the source file `fileId` (an SQL expression) is not set aside. */
export function notSetAside(scope: AppScope, fileId: string): string {
  return `NOT EXISTS (SELECT 1 FROM ${scope.t.importFailures} x WHERE x.source_file_id = ${fileId} AND x.failed_at IS NOT NULL)`
}

/**
 * Counts one failed attempt (one round trip): the row is created or bumped, and set aside once it reaches the
 * limit. `failed_at` is assigned before `attempts` because MySQL evaluates an UPDATE's assignments in order.
 */
export async function recordFailure(ctx: ImportContext, subject: FailureSubject, message: string): Promise<FailureRow> {
  const { t, db } = ctx.scope
  const now = toTimestamp(ctx.now())
  const previous = ctx.failures.get(subject.ref)
  const restart = previous !== undefined && previous.source_file_id === null && previous.etag !== subject.etag
  const { stored } = await namedBatch(db, {
    restart: restart ? clearFailureStatement(ctx.scope, subject.ref) : null,
    insert: {
      sql: db.dialect.insertIgnore(t.importFailures, ['ref', 'source_file_id', 'path', 'etag', 'attempts', 'error', 'updated_at'], 'VALUES (?, ?, ?, ?, 0, ?, ?)', ['ref']),
      args: [subject.ref, subject.sourceFileId, subject.path, subject.etag, message, now],
    },
    count: {
      sql: `UPDATE ${t.importFailures} SET failed_at = CASE WHEN attempts + 1 >= ? THEN ? ELSE NULL END, attempts = attempts + 1,
          error = ?, path = ?, etag = ?, updated_at = ? WHERE ref = ?`,
      args: [ctx.limits.maxFileAttempts, now, message, subject.path, subject.etag, now, subject.ref],
    },
    stored: { sql: `SELECT ${COLUMNS} FROM ${t.importFailures} WHERE ref = ?`, args: [subject.ref] },
  })
  const row = toFailureRow(stored.rows[0]!)
  ctx.failures.set(subject.ref, row)
  return row
}

export function clearFailureStatement(scope: AppScope, ref: string): Statement {
  return { sql: `DELETE FROM ${scope.t.importFailures} WHERE ref = ?`, args: [ref] }
}

/** Forgets a subject's failures after it went through (one round trip, only when it had failed before). */
export async function clearFailure(ctx: ImportContext, ref: string): Promise<void> {
  if (!ctx.failures.has(ref)) return
  await ctx.scope.db.execute(clearFailureStatement(ctx.scope, ref))
  ctx.failures.delete(ref)
}

/** The set-aside files as `GET ?api=import-incoming` lists them, newest first. */
export function setAsideStatement(scope: AppScope, limit = 100): Statement {
  return {
    sql: `SELECT ${COLUMNS} FROM ${scope.t.importFailures} WHERE failed_at IS NOT NULL ORDER BY failed_at DESC, id DESC LIMIT ?`,
    args: [limit],
  }
}

export function presentFailure(row: FailureRow): FailedImport {
  return { id: row.id, path: row.path, source_id: row.source_file_id, error: row.error, attempts: row.attempts, failed_at: row.failed_at ?? '' }
}
