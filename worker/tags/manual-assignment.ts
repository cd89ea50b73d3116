import type { AppScope } from '../apps/app-scope.ts'

/**
 * `INSERT … <source> ` attaching tags as `manual`, turning existing rule-made (or ingest/tracker) assignments
 * into manual ones (seed §4.3 rule 1). `source` selects `(group_id, tag_id, 'manual', created_at)` and must
 * contain a WHERE clause (dialect.upsert).
 */
export function upsertManualAssignments(scope: AppScope, source: string): string {
  return scope.db.dialect.upsert(scope.t.groupTags, ['group_id', 'tag_id', 'source', 'created_at'], source, ['group_id', 'tag_id'], { source: "'manual'" })
}
