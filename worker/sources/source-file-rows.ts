import type { SourceFile } from '../../shared/api.ts'
import type { AppScope } from '../apps/app-scope.ts'

export type { SourceFile }


/** Newest import first, then path; files never imported last (NULL ordering differs between engines). */
export const SOURCE_FILE_ORDER = 's.imported_at IS NULL, s.imported_at DESC, s.path'

/**
 * `SELECT <fields> FROM source_files s …` with the view's columns. The occurrence count is the one the
 * import maintains (`file_imports`), counted live only for files that have none (e.g. synthetic sources).
 */
export function sourceFileSelect(scope: AppScope): string {
  const { t } = scope
  return `SELECT s.id, s.path, s.size, s.imported_at, s.log_type, s.channel,
      COALESCE(f.occurrence_count, (SELECT COUNT(*) FROM ${t.occurrences} o WHERE o.source_file_id = s.id)) AS occurrence_count,
      m.id AS module_id, m.name AS module_name, m.slug AS module_slug, m.color AS module_color
    FROM ${t.sourceFiles} s
    LEFT JOIN ${t.fileImports} f ON f.source_file_id = s.id
    LEFT JOIN ${t.modules} m ON m.id = s.module_id`
}

/** The view's field list, for `dialect.jsonArray` over a derived table `x` holding `sourceFileSelect` rows. */
export const SOURCE_FILE_JSON_FIELDS: Readonly<Record<keyof SourceFile, string>> = {
  id: 'x.id',
  path: 'x.path',
  size: 'x.size',
  imported_at: 'x.imported_at',
  log_type: 'x.log_type',
  channel: 'x.channel',
  occurrence_count: 'x.occurrence_count',
  module_id: 'x.module_id',
  module_name: 'x.module_name',
  module_slug: 'x.module_slug',
  module_color: 'x.module_color',
}

export function toSourceFile(row: Record<string, unknown>): SourceFile {
  const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value))
  return {
    id: Number(row.id),
    path: String(row.path),
    size: Number(row.size),
    imported_at: (row.imported_at as string | null) ?? null,
    log_type: String(row.log_type),
    channel: (row.channel as string | null) ?? null,
    occurrence_count: Number(row.occurrence_count ?? 0),
    module_id: nullableNumber(row.module_id),
    module_name: (row.module_name as string | null) ?? null,
    module_slug: (row.module_slug as string | null) ?? null,
    module_color: (row.module_color as string | null) ?? null,
  }
}

/** Sorts views as `SOURCE_FILE_ORDER` does (JSON aggregation does not keep order on every engine). */
export function compareSourceFiles(a: SourceFile, b: SourceFile): number {
  if ((a.imported_at === null) !== (b.imported_at === null)) return a.imported_at === null ? 1 : -1
  if (a.imported_at !== b.imported_at) return (a.imported_at ?? '') < (b.imported_at ?? '') ? 1 : -1
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0
}
