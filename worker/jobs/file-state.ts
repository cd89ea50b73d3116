import type { SqlValue } from '../../drivers/driver.ts'
import { readRow } from '../../drivers/read-row.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { notSetAside } from './failed-files.ts'

/** One archived file and where its import stands (`source_files` joined with `file_imports`). */
export interface FileState {
  readonly id: number
  /** The R2 key of the archived copy (`processed/<app>/…`). */
  readonly path: string
  readonly size: number
  readonly modified_at: string | null
  /** The import version the file was read under (reference §2.9); 0 after a reindex. */
  readonly parser_version: number
  readonly log_type: string
  readonly channel: string | null
  readonly module_id: number | null
  /** The path it arrived under, below `incoming/<app>/`: its identity across re-uploads. */
  readonly origin_path: string | null
  readonly etag: string | null
  readonly prefix_hash: string | null
  readonly parser_id: string | null
  readonly next_offset: number
  readonly inside_event: number
}

/** A SELECT of file states; `where` may use `s` (source_files) and `f` (file_imports). */
export function selectFileStates(scope: AppScope, where: string, args: readonly SqlValue[], tail = ''): { sql: string; args: readonly SqlValue[] } {
  const { t } = scope
  return {
    sql: `SELECT s.id, s.path, s.size, s.modified_at, s.parser_version, s.log_type, s.channel, s.module_id,
        f.origin_path, f.etag, f.prefix_hash, f.parser_id, f.next_offset, f.inside_event
      FROM ${t.sourceFiles} s JOIN ${t.fileImports} f ON f.source_file_id = s.id WHERE ${where} ${tail}`,
    args,
  }
}

export function toFileState(row: Record<string, unknown>): FileState {
  return readRow(
    row,
    {
      id: 'number', path: 'string', size: 'number', modified_at: 'string?', parser_version: 'number', log_type: 'string', channel: 'string?', module_id: 'number?',
      origin_path: 'string?', etag: 'string?', prefix_hash: 'string?', parser_id: 'string?', next_offset: 'number', inside_event: 'number',
    },
    'file state',
  )
}

/** The condition on `s`/`f` of a file with bytes still to read that is not set aside (import-failures.ts). */
export function pendingCondition(scope: AppScope): string {
  return `f.next_offset < s.size AND ${notSetAside(scope, 's.id')}`
}

/** Files with bytes still to read, oldest first (the work a run, a job or the cron continues). */
export async function pendingFiles(scope: AppScope): Promise<FileState[]> {
  const { rows } = await scope.db.execute(selectFileStates(scope, pendingCondition(scope), [], 'ORDER BY s.id'))
  return rows.map(toFileState)
}
