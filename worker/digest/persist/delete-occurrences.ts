import type { SqlValue, Statement } from '../../../drivers/driver.ts'
import { namedBatch } from '../../../drivers/named-batch.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { isMergeTarget } from '../../issues/fingerprint-aliases.ts'
import { unfoldDailyCountsStatement } from './daily-counts.ts'
import { orphanValuesStatement, scaleValuesStatement } from '../issue-value-rollup.ts'
import { clearChannelsStatement } from './group-channels.ts'
import { randomToken } from './random-token.ts'

/**
 * Which occurrences to delete: a condition on the `occurrences` table written with unqualified column names
 * (it is used both in `DELETE FROM occurrences WHERE …` and in SELECTs over the same table), plus its
 * arguments. A condition that needs a subquery over `occurrences` must wrap it in a derived table (MySQL
 * refuses a DELETE whose subquery reads the target table directly).
 */
export interface OccurrenceSelection {
  readonly where: string
  readonly args: readonly SqlValue[]
}

export interface DeletedOccurrences {
  readonly occurrences: number
  /** Ingested issues deleted because no occurrence was left (manual and Linear issues are never touched). */
  readonly emptyIssueGroups: number
}

/**
 * Deletes occurrences and brings every derived value of the issues and files they belonged to back in step,
 * for those rows only (reference §2.6 `refreshAggregates`, scoped): `group_days`, `group_sources` and
 * `group_channels` are rebuilt for the affected issues, `daily_counts` lowered, `count`/`first_seen`/`last_seen` recomputed (`heat` scaled with `count`), ingested issues left empty
 * deleted (except merge targets, which keep their merged fingerprints' aliases), and the affected files' occurrence counts recounted. The affected ids are remembered in
 * `affected_refs` under a fresh token, so everything is ONE atomic batch. `extra` statements (e.g. a
 * checkpoint reset) join the same batch.
 */
export async function deleteOccurrences(scope: AppScope, selection: OccurrenceSelection, extra: readonly Statement[] = []): Promise<DeletedOccurrences> {
  const { deleted, emptiedCount } = await namedBatch(scope.db, { ...deleteOccurrencesSteps(scope, selection, randomToken()), extra })
  return { occurrences: deleted.rowsAffected, emptyIssueGroups: Number(emptiedCount.rows[0]?.n ?? 0) }
}

/** The statements of one deletion, named (`deleted` counts the occurrences, `emptied` the issues removed). */
function deleteOccurrencesSteps(scope: AppScope, selection: OccurrenceSelection, token: string) {
  const { t, db } = scope
  const d = db.dialect
  const G = t.groups
  const { where, args } = selection
  const affected = (kind: 'g' | 'f') => `(SELECT a.ref_id FROM ${t.affectedRefs} a WHERE a.token = ? AND a.kind = '${kind}')`
  // A merge target stays even when emptied: merged fingerprints group into it (fingerprint-aliases.ts).
  const emptiedWhere = `origin = 'ingested' AND id IN ${affected('g')}
        AND NOT EXISTS (SELECT 1 FROM ${t.occurrences} o WHERE o.group_id = ${G}.id) AND NOT ${isMergeTarget(t, G)}`
  return {
    remember: [
      {
        sql: `INSERT INTO ${t.affectedRefs} (token, kind, ref_id) SELECT DISTINCT ${d.castText('?')}, 'g', group_id FROM ${t.occurrences} WHERE ${where}`,
        args: [token, ...args],
      },
      {
        sql: `INSERT INTO ${t.affectedRefs} (token, kind, ref_id) SELECT DISTINCT ${d.castText('?')}, 'f', source_file_id FROM ${t.occurrences} WHERE ${where}`,
        args: [token, ...args],
      },
    ],
    unfold: unfoldDailyCountsStatement(scope, selection),
    deleted: { sql: `DELETE FROM ${t.occurrences} WHERE ${where}`, args } satisfies Statement,
    rollups: [
      { sql: `DELETE FROM ${t.groupDays} WHERE group_id IN ${affected('g')}`, args: [token] },
      {
        // The issue's severity, not the occurrences' own: a merge moves occurrences without rewriting theirs.
        sql: `INSERT INTO ${t.groupDays} (group_id, day, severity, count)
          SELECT o.group_id, o.occurred_day, g.severity, COUNT(*) FROM ${t.occurrences} o JOIN ${t.groups} g ON g.id = o.group_id
          WHERE o.group_id IN ${affected('g')} GROUP BY o.group_id, o.occurred_day, g.severity`,
        args: [token],
      },
      // Before `count` is recomputed: the values scale by the share of occurrences left (issue-value-rollup.ts).
      scaleValuesStatement(scope, affected('g'), token),
      // Their channel rows go first: the trigger of migration 0018 adds them back with the pairs re-inserted.
      clearChannelsStatement(scope, affected('g'), [token]),
      { sql: `DELETE FROM ${t.groupSources} WHERE group_id IN ${affected('g')}`, args: [token] },
      {
        sql: `INSERT INTO ${t.groupSources} (group_id, source_file_id)
          SELECT DISTINCT o.group_id, o.source_file_id FROM ${t.occurrences} o WHERE o.group_id IN ${affected('g')}`,
        args: [token],
      },
      {
        // `heat` (migration 0013) first, reading the old `count` (MySQL assigns left to right): scaled by the share
        // of occurrences left — an approximation, exact when all or none go (a reindex clears a file and reads
        // it again, so its heat is never counted twice); the weights of the deleted days are not at hand.
        sql: `UPDATE ${G} SET
            heat = CASE WHEN count > 0 THEN heat * COALESCE((SELECT SUM(gd.count) FROM ${t.groupDays} gd WHERE gd.group_id = ${G}.id), 0) / count ELSE 0 END,
            count = COALESCE((SELECT SUM(gd.count) FROM ${t.groupDays} gd WHERE gd.group_id = ${G}.id), 0),
            first_seen = COALESCE((SELECT MIN(o.occurred_at) FROM ${t.occurrences} o WHERE o.group_id = ${G}.id), first_seen),
            last_seen = COALESCE((SELECT MAX(o.occurred_at) FROM ${t.occurrences} o WHERE o.group_id = ${G}.id), last_seen)
          WHERE origin = 'ingested' AND id IN ${affected('g')}`,
        args: [token],
      },
    ],
    // The emptied issues are counted before they go, in the same batch: D1 reports a statement's changes as the
    // connection's total_changes() delta, which counts the rows the issue_rollup triggers write (migration
    // 0016) and cascaded deletes, so the DELETE's own count is not the issues' on every driver.
    emptiedCount: { sql: `SELECT COUNT(*) AS n FROM ${G} WHERE ${emptiedWhere}`, args: [token] } satisfies Statement,
    emptied: { sql: `DELETE FROM ${G} WHERE ${emptiedWhere}`, args: [token] } satisfies Statement,
    values: orphanValuesStatement(scope, affected('g'), token),
    fileCounts: {
      sql: `UPDATE ${t.fileImports} SET occurrence_count = (SELECT COUNT(*) FROM ${t.occurrences} o WHERE o.source_file_id = ${t.fileImports}.source_file_id)
        WHERE source_file_id IN ${affected('f')}`,
      args: [token],
    } satisfies Statement,
    forget: { sql: `DELETE FROM ${t.affectedRefs} WHERE token = ?`, args: [token] } satisfies Statement,
  }
}
