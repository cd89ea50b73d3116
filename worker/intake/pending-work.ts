import type { PendingWork } from '../../shared/api.ts'
import type { Statement } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { pendingCondition } from '../jobs/file-state.ts'
import { objectRef } from '../jobs/failed-files.ts'
import { uploadsPrefix } from './log-storage.ts'
import type { LogStore, StoredLog } from './log-store.ts'

export type { PendingWork }

/** Archived files with bytes left to read (set-aside ones excluded): `files`, `bytes`. */
export function pendingFilesStatement(scope: AppScope): Statement {
  return {
    sql: `SELECT COUNT(*) AS files, COALESCE(SUM(s.size - f.next_offset), 0) AS bytes
      FROM ${scope.t.sourceFiles} s JOIN ${scope.t.fileImports} f ON f.source_file_id = s.id WHERE ${pendingCondition(scope)}`,
  }
}

/** The `refs` of set-aside objects (staged uploads that could not be archived). */
export function setAsideObjectsStatement(scope: AppScope): Statement {
  return { sql: `SELECT ref FROM ${scope.t.importFailures} WHERE failed_at IS NOT NULL AND source_file_id IS NULL` }
}

/**
 * Uploads stored under `uploads/<app>/` and not yet archived, in arrival order, without the set-aside ones.
 * `setAside` are their refs when the caller has them; otherwise they are read (one round trip) — only when
 * there are staged uploads at all, which after a run is rare.
 */
export async function stagedUploads(logs: LogStore, scope: AppScope, setAside?: ReadonlySet<string>): Promise<StoredLog[]> {
  const objects = await logs.list(uploadsPrefix(scope.app.id))
  if (objects.length === 0) return []
  return withoutSetAside(objects, setAside ?? new Set((await scope.db.execute(setAsideObjectsStatement(scope))).rows.map((row) => String(row.ref))))
}

export async function withoutSetAside(objects: readonly StoredLog[], setAside: ReadonlySet<string>): Promise<StoredLog[]> {
  if (setAside.size === 0) return [...objects]
  const live: StoredLog[] = []
  for (const object of objects) if (!setAside.has(await objectRef(object.key))) live.push(object)
  return live
}

/** Adds staged uploads to the archive's pending work. */
export function withStaged(files: { files: number; bytes: number }, staged: readonly StoredLog[]): PendingWork {
  return { files: files.files + staged.length, bytes: files.bytes + staged.reduce((sum, object) => sum + object.size, 0) }
}

/** Everything still to import: archived files with bytes left and staged uploads. */
export async function pendingWork(scope: AppScope, logs: LogStore | undefined): Promise<PendingWork> {
  const [{ rows }, staged] = await Promise.all([scope.db.execute(pendingFilesStatement(scope)), logs ? stagedUploads(logs, scope) : []])
  return withStaged(countRow(rows[0]), staged)
}

export function countRow(row: Record<string, unknown> | undefined): { files: number; bytes: number } {
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) }
}
