import { readRow } from '../../../drivers/read-row.ts'
import type { ReleaseSummary } from '../../../shared/schemas/releases.ts'
import type { AppScope } from '../../apps/app-scope.ts'

/**
 * `GET ?api=releases&limit` (Loupe's addition, issue 14: the dashboard's Releases view): every version an
 * event named, a deploy recorded or a source map was uploaded for, latest seen first, with its issues, the
 * issues first seen in it (`new_issues`) and those that regressed in it, its maps and deploys. One query.
 */
export async function listReleases(scope: AppScope, limit: number): Promise<ReleaseSummary[]> {
  const { t, db } = scope
  const rel = db.dialect.quote('release')
  const { rows } = await db.execute({
    sql: `SELECT v.version, r.first_seen, r.last_seen,
        (SELECT COUNT(*) FROM ${t.releaseGroups} rg WHERE rg.${rel} = v.version) AS issue_count,
        (SELECT COUNT(*) FROM ${t.groupReleases} gf WHERE gf.first_release = v.version) AS new_issues,
        (SELECT COUNT(*) FROM ${t.groupReleases} gx WHERE gx.regressed_release = v.version) AS regressed_issues,
        (SELECT COUNT(*) FROM ${t.sourceMaps} sm WHERE sm.${rel} = v.version) AS source_maps,
        (SELECT COUNT(*) FROM ${t.deploys} d WHERE d.version = v.version) AS deploys,
        (SELECT MAX(d2.deployed_at) FROM ${t.deploys} d2 WHERE d2.version = v.version) AS deployed_at
      FROM (SELECT version FROM ${t.releases} UNION SELECT version FROM ${t.deploys} UNION SELECT ${rel} FROM ${t.sourceMaps}) v
      LEFT JOIN ${t.releases} r ON r.version = v.version
      ORDER BY COALESCE(r.last_seen, '') DESC, v.version DESC LIMIT ?`,
    args: [limit],
  })
  return rows.map((row) =>
    readRow(
      row,
      { version: 'string', first_seen: 'string?', last_seen: 'string?', issue_count: 'number', new_issues: 'number', regressed_issues: 'number', source_maps: 'number', deploys: 'number', deployed_at: 'string?' },
      'release',
    ),
  )
}
