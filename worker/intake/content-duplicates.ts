import type { AppScope } from '../apps/app-scope.ts'
import { notSetAside } from '../jobs/failed-files.ts'

/**
 * The same bytes under another name (issue 10 defect 7; reference §6 `already_ingested`): a file whose whole
 * content — SHA-256 and size — equals that of another archived file of the same module (a rotated copy such
 * as `laravel.log.1`, or the same log uploaded twice under two names) is registered with its checkpoint at its
 * end, so nothing of it is read twice; appended later, only its new tail is read. The module must match
 * because it is part of every event read from the file: the same bytes filed under two modules are two
 * modules' events. Files set aside are no original (their events were never all stored). These are SQL
 * fragments for the registration's own batch, so the check costs no round trip; each takes the argument
 * `[sha256]`, then whatever `self` (an SQL expression for the file's own id, its row already written) needs.
 */
function candidates(scope: AppScope, self: string, join = ''): string {
  const { t } = scope
  return `FROM ${t.fileContents} c JOIN ${t.sourceFiles} s2 ON s2.id = c.source_file_id ${join}
    JOIN ${t.sourceFiles} me ON me.size = s2.size
    WHERE c.sha256 = ? AND me.id = ${self} AND s2.id <> me.id
      AND (s2.module_id = me.module_id OR (s2.module_id IS NULL AND me.module_id IS NULL)) AND ${notSetAside(scope, 's2.id')}`
}

/** True when another file holds the same content. */
export function duplicateExists(scope: AppScope, self: string): string {
  return `EXISTS (SELECT 1 ${candidates(scope, self)})`
}

/** The path (incoming path, else archive key) of the oldest file holding the same content, or NULL. */
export function originalPath(scope: AppScope, self: string): string {
  const join = `JOIN ${scope.t.fileImports} f2 ON f2.source_file_id = s2.id`
  return `(SELECT COALESCE(f2.origin_path, s2.path) ${candidates(scope, self, join)} ORDER BY s2.id LIMIT 1)`
}
