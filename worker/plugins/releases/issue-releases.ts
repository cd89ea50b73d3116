import { namedBatch } from '../../../drivers/named-batch.ts'
import { readRow } from '../../../drivers/read-row.ts'
import type { IssueRelease, IssueReleases } from '../../../shared/schemas/releases.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { NotFoundError } from '../../errors.ts'
import { ISSUE_NOT_FOUND } from '../../issues/issue-messages.ts'
import { readReleaseSettingsStatement, sourceLink, toReleaseSettings } from './release-settings.ts'

/**
 * `GET ?api=issue-releases&id` (reference §4.4): the releases an issue's occurrences named (latest seen
 * first), its first and last release, the release it was first seen in and the one it regressed in, and the
 * code-host link of its culprit frame. One read batch of three statements.
 */
export async function issueReleases(scope: AppScope, id: number): Promise<IssueReleases> {
  const { t, db } = scope
  const rel = db.dialect.quote('release')
  const { issue, releases, settings } = await namedBatch(
    db,
    {
      issue: {
        sql: `SELECT g.source_frame, gr.first_release, gr.regressed_release FROM ${t.groups} g LEFT JOIN ${t.groupReleases} gr ON gr.group_id = g.id WHERE g.id = ?`,
        args: [id],
      },
      releases: {
        sql: `SELECT o.${rel} AS rel, COUNT(*) AS occurrences, MIN(o.occurred_at) AS first_seen, MAX(o.occurred_at) AS last_seen
          FROM ${t.occurrences} o WHERE o.group_id = ? AND o.${rel} IS NOT NULL GROUP BY o.${rel}`,
        args: [id],
      },
      settings: readReleaseSettingsStatement(scope),
    },
    { mode: 'read' },
  )
  if (issue.rows.length === 0) throw new NotFoundError(ISSUE_NOT_FOUND)
  const row = readRow(issue.rows[0], { source_frame: 'string?', first_release: 'string?', regressed_release: 'string?' }, 'issue releases')
  const list: IssueRelease[] = releases.rows
    .map((r) => {
      const read = readRow(r, { rel: 'string', occurrences: 'number', first_seen: 'string', last_seen: 'string' }, 'issue release')
      return { release: read.rel, occurrences: read.occurrences, first_seen: read.first_seen, last_seen: read.last_seen }
    })
    .sort((a, b) => (a.last_seen === b.last_seen ? a.release.localeCompare(b.release) : a.last_seen < b.last_seen ? 1 : -1))
  const first = list.reduce<IssueRelease | null>((best, r) => (best === null || r.first_seen < best.first_seen ? r : best), null)
  return {
    releases: list,
    first_release: first?.release ?? null,
    last_release: list[0]?.release ?? null,
    introduced_in: row.first_release,
    regressed_in: row.regressed_release,
    source_link: sourceLink(toReleaseSettings(settings.rows), row.source_frame),
  }
}
