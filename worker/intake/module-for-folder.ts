import { MODULE_DEFAULT_COLOR } from '../../shared/constants.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { readRow } from '../../drivers/read-row.ts'
import { slugify } from '../../shared/schemas/application.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { nameKey } from '../tags/tag-queries.ts'

export interface FolderModule {
  readonly id: number
  readonly slug: string
}

/**
 * The module an incoming folder stands for, created on demand (reference §3.3, §6): name = the folder with
 * `-`/`_` as spaces in title case, slug = the folder slugified. An existing module with the same slug or
 * (case-insensitive) name is reused. A folder that slugifies to nothing gives no module. One round trip.
 */
export async function moduleForFolder(scope: AppScope, folder: string, now: string): Promise<FolderModule | null> {
  const slug = slugify(folder)
  if (slug === '') return null
  const name = titleCase(folder).slice(0, 100) || slug
  const key = nameKey(name)
  const { t, db } = scope
  const d = db.dialect
  const candidate = `SELECT ${d.castText('?')} AS name, ${d.castText('?')} AS name_key, ${d.castText('?')} AS slug, ${d.castText('?')} AS color, ${d.castText('?')} AS created_at`
  const { found } = await namedBatch(db, {
    create: {
      sql: d.insertIgnore(
        t.modules,
        ['name', 'name_key', 'slug', 'color', 'created_at'],
        `SELECT c.name, c.name_key, c.slug, c.color, c.created_at FROM (${candidate}) c
         WHERE NOT EXISTS (SELECT 1 FROM ${t.modules} m WHERE m.slug = ? OR m.name_key = ?)`,
        ['name_key'],
      ),
      args: [name, key, slug, MODULE_DEFAULT_COLOR, now, slug, key],
    },
    found: {
      sql: `SELECT id, slug FROM ${t.modules} WHERE slug = ? OR name_key = ? ORDER BY CASE WHEN slug = ? THEN 0 ELSE 1 END`,
      args: [slug, key, slug],
    },
  })
  const row = found.rows[0]
  return row ? readRow(row, { id: 'number', slug: 'string' }, 'module') : null
}

/** PHP's `ucwords(str_replace(['-', '_'], ' ', $dir))`, with runs of spaces collapsed. */
export function titleCase(folder: string): string {
  return folder
    .replace(/[-_]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/(^|\s)(\S)/g, (_, space: string, letter: string) => space + letter.toUpperCase())
}
