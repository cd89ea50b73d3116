import type { AppScope } from '../apps/app-scope.ts'
import type { Deps } from '../deps.ts'
import { importUnderLock, runRequestImport, type ImportResponse } from '../jobs/request-import.ts'
import { requireLogs, processedPrefix } from '../intake/log-storage.ts'

/** Ids per JSON parameter when resetting files (keeps the parameter far below D1's 1 MB string limit). */
const IDS_PER_STATEMENT = 20_000

/**
 * `POST ?api=reindex` (reference §3.6): every file whose archive still exists is marked as never read
 * (import version 0, checkpoint 0) and imported again — each one is cleared first, so the current parsers and
 * allow-list decide what it holds. Runs like an import: within the request's budget, the rest as a job.
 */
export async function reindex(deps: Deps, scope: AppScope): Promise<ImportResponse> {
  const logs = requireLogs(deps)
  return importUnderLock(deps, scope, async (lock) => {
    const { t, db } = scope
    const archived = new Set((await logs.list(processedPrefix(scope.app.id))).map((object) => object.key))
    const { rows } = await db.execute({ sql: `SELECT s.id, s.path FROM ${t.sourceFiles} s JOIN ${t.fileImports} f ON f.source_file_id = s.id` })
    const ids = rows.filter((row) => archived.has(String(row.path))).map((row) => ({ id: Number(row.id) }))
    for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
      const json = JSON.stringify(ids.slice(i, i + IDS_PER_STATEMENT))
      const chosen = `(SELECT j.id FROM ${db.dialect.jsonRecords({ id: 'integer' }, 'j')})`
      await db.batch([
        { sql: `UPDATE ${t.sourceFiles} SET parser_version = 0, last_offset = 0 WHERE id IN ${chosen}`, args: [json] },
        { sql: `UPDATE ${t.fileImports} SET next_offset = 0, inside_event = 0 WHERE source_file_id IN ${chosen}`, args: [json] },
      ])
    }
    return runRequestImport(deps, scope, logs, lock, { kind: 'reindex', scanIncoming: false })
  })
}
