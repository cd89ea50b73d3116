import type { Statement } from '../../../drivers/driver.ts'
import { Fragment } from '../../../drivers/sql.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import type { OccurrenceSelection } from './delete-occurrences.ts'

/**
 * `daily_counts` (migration 0004): occurrences per day and severity, what the summary's `trend` and
 * `daily_severity` read. It is folded in by occurrence id rather than in every import batch, so a batch keeps
 * its statement count (PlanetScale pays one round trip per statement): `rollups.through_id` is the last
 * occurrence id folded in, and ids only grow (AUTOINCREMENT / identity / AUTO_INCREMENT), so whatever a
 * crashed run committed is folded by the next fold. Folds run where an import run ends, under the import
 * lock; deletions take out the folded rows they delete.
 */
const ROLLUP = 'daily_counts'

/**
 * Adds every occurrence past the mark to `daily_counts` and moves the mark — three statements for one batch.
 * The first takes the mark's row lock, so two folds (a file import's and the HTTP-ingest digest's, which do
 * not share a lock) run one after the other and the second reads the mark the first moved (PostgreSQL reads
 * committed rows per statement); D1 and libSQL run whole batches one at a time anyway.
 */
export function foldDailyCountsStatements(scope: AppScope): Statement[] {
  const { t, db } = scope
  const d = db.dialect
  return [
    { sql: `UPDATE ${t.rollups} SET through_id = through_id WHERE name = ?`, args: [ROLLUP] },
    {
      sql: d.upsert(
        t.dailyCounts,
        ['day', 'severity', 'count'],
        `SELECT o.occurred_day, o.severity, COUNT(*) FROM ${t.occurrences} o
          WHERE o.id > (SELECT r.through_id FROM ${t.rollups} r WHERE r.name = ?) GROUP BY o.occurred_day, o.severity`,
        ['day', 'severity'],
        { count: `${t.dailyCounts}.count + ${d.incoming('count')}` },
      ),
      args: [ROLLUP],
    },
    {
      sql: `UPDATE ${t.rollups} SET through_id = COALESCE((SELECT MAX(o.id) FROM ${t.occurrences} o), through_id) WHERE name = ?`,
      args: [ROLLUP],
    },
  ]
}

/**
 * Takes the occurrences `selection` is about to delete out of `daily_counts` — those already folded in; later
 * ones were never counted. Runs before the DELETE, in the same batch.
 */
export function unfoldDailyCountsStatement(scope: AppScope, selection: OccurrenceSelection): Statement {
  const { t, db } = scope
  return db.dialect.updateFrom(
    t.dailyCounts,
    'DC',
    { count: 'DC.count - x.n' },
    new Fragment(
      `(SELECT occurred_day AS day, severity, COUNT(*) AS n FROM ${t.occurrences}
          WHERE (${selection.where}) AND id <= (SELECT r.through_id FROM ${t.rollups} r WHERE r.name = ?) GROUP BY occurred_day, severity) x`,
      [...selection.args, ROLLUP],
    ),
    'DC.day = x.day AND DC.severity = x.severity',
  )
}
