import type { SourcesPage } from '../../shared/api.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { SOURCE_FILE_ORDER, sourceFileSelect, toSourceFile, type SourceFile } from './source-file-rows.ts'


/** `GET ?api=sources`: source files, newest import first, paginated (reference §3.1) — one read batch. */
export async function listSources(scope: AppScope, page: number, limit: number): Promise<SourcesPage> {
  const { count, files } = await namedBatch(
    scope.db,
    {
      count: { sql: `SELECT COUNT(*) AS total FROM ${scope.t.sourceFiles}` },
      files: { sql: `${sourceFileSelect(scope)} ORDER BY ${SOURCE_FILE_ORDER} LIMIT ? OFFSET ?`, args: [limit, (page - 1) * limit] },
    },
    { mode: 'read' },
  )
  const total = Number(count.rows[0]?.total ?? 0)
  return { data: files.rows.map(toSourceFile), meta: { total, page, limit, pages: Math.ceil(total / limit) } }
}
