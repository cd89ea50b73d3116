import { parseJson } from '../../drivers/dialect/dialect.ts'
import type { Tag, TagRule } from '../../shared/schemas/tag.ts'
import type { AppScope } from '../apps/app-scope.ts'

/**
 * `SELECT` of tags exactly as `GET ?api=tags` lists them — issue count and rules included, in one
 * statement (design.md §5: the list is one round trip). `where` filters `t`.
 */
export function selectTags(scope: AppScope, where = '1 = 1'): string {
  const { t, db } = scope
  const rules = db.dialect.jsonArray(
    { id: 'r.id', match_word: 'r.match_word', enabled: 'r.enabled' },
    `FROM ${t.tagRules} r WHERE r.tag_id = t.id`,
  )
  return `SELECT t.id, t.name, t.color, t.icon, t.created_at, t.updated_at, t.created_by, t.updated_by,
      (SELECT COUNT(*) FROM ${t.groupTags} gt WHERE gt.tag_id = t.id) AS issue_count,
      ${rules} AS rules
    FROM ${t.tags} t WHERE ${where} ORDER BY t.name_key, t.id`
}

/** Row → API shape: JSON rules parsed and sorted, `enabled` as a boolean (seed §2). */
export function toTag(row: Record<string, unknown>): Tag {
  const rules = parseJson<{ id: number; match_word: string; enabled: number | boolean }[]>(row.rules, [])
  return {
    id: Number(row.id),
    name: String(row.name),
    color: String(row.color),
    icon: String(row.icon),
    created_at: String(row.created_at),
    updated_at: (row.updated_at as string | null) ?? null,
    created_by: (row.created_by as string | null) ?? null,
    updated_by: (row.updated_by as string | null) ?? null,
    issue_count: Number(row.issue_count),
    rules: rules
      .map((rule): TagRule => ({ id: Number(rule.id), match_word: String(rule.match_word), enabled: Boolean(Number(rule.enabled)) }))
      .sort((a, b) => a.id - b.id),
  }
}

/** The key case-insensitive uniqueness is enforced on, identically on every engine. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase()
}
