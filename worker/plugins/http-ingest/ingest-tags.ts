import type { Statement } from '../../../drivers/driver.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { resolvedFingerprint } from '../../issues/fingerprint-aliases.ts'
import { nameKey } from '../../tags/tag-queries.ts'

/** Colour and icon of tags an ingested event creates (reference §4.3). */
export const INGEST_TAG_STYLE = { color: '#64748b', icon: 'tag' } as const

/**
 * The tags events named (reference §4.3 `tags`): each missing tag is created (matched case-insensitively by
 * `name_key`, the first spelling wins) and attached to the event's issue with source `ingest`. An issue that
 * already has the tag — by hand, by a rule or by an earlier ingest — keeps that assignment. Two statements
 * in the digest's batch, none when no event named a tag.
 */
export function ingestTagStatements(scope: AppScope, tagged: readonly { fingerprint: string; tags: readonly string[] }[], now: string): Statement[] {
  const rows = tagged.flatMap(({ fingerprint, tags }) => tags.map((name) => ({ fp: fingerprint, name, key: nameKey(name) })))
  if (rows.length === 0) return []
  const { t, db } = scope
  const d = db.dialect
  const json = JSON.stringify(rows)
  const source = d.jsonRecords({ fp: 'text', name: 'text', key: 'text' }, 'j')
  return [
    {
      sql: d.insertIgnore(
        t.tags,
        ['name', 'name_key', 'color', 'icon', 'created_at', 'created_by'],
        `SELECT j.name, j.key, ${d.castText('?')}, ${d.castText('?')}, ${d.castText('?')}, 'ingest' FROM ${source}
         WHERE NOT EXISTS (SELECT 1 FROM ${t.tags} x WHERE x.name_key = j.key)`,
        ['name_key'],
      ),
      args: [INGEST_TAG_STYLE.color, INGEST_TAG_STYLE.icon, now, json],
    },
    {
      sql: d.insertIgnore(
        t.groupTags,
        ['group_id', 'tag_id', 'source', 'created_at'],
        `SELECT DISTINCT g.id, x.id, 'ingest', ${d.castText('?')} FROM ${source}
         JOIN ${t.groups} g ON g.fingerprint = ${resolvedFingerprint(t, 'j.fp')} JOIN ${t.tags} x ON x.name_key = j.key WHERE 1 = 1`,
        ['group_id', 'tag_id'],
      ),
      args: [now, json],
    },
  ]
}
