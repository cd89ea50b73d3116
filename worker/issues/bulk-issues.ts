import type { Statement } from '../../drivers/driver.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { Fragment, sql } from '../../drivers/sql.ts'
import type { BulkResult } from '../../shared/api.ts'
import { toPositiveInteger } from '../../shared/schemas/fields.ts'
import { BULK_MESSAGES, ISSUE_MESSAGES, type BulkIssuesInput } from '../../shared/schemas/issue.ts'
import type { Actor } from '../actor.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { InvalidInputError } from '../errors.ts'
import { appliedHistoryInsert, isMissingIssue, newChangeToken } from './applied-status-history.ts'
import { normalizeNote } from './issue-status.ts'
import { upsertManualAssignments } from '../tags/manual-assignment.ts'

export const MAX_BULK_IDS = 200

/**
 * `POST ?api=bulk-issues` (reference §3.1): a status change or a tag added/removed on 1–200 issues,
 * all-or-nothing, whatever the number of issues (ids travel as one JSON parameter). A status change is one
 * atomic batch whose writes check that every issue exists (one round trip; on MySQL one INSERT whose rows apply
 * the change, migration 0019); a tag action reads the check first, then writes (two).
 */
export async function bulkUpdateIssues(scope: AppScope, input: BulkIssuesInput, actor: Actor, now: string): Promise<BulkResult> {
  const ids = readIds(input.ids)
  const idsJson = JSON.stringify(ids.map((id) => ({ id })))
  const { t, db } = scope
  const inIds = `IN (SELECT j.id FROM ${db.dialect.jsonRecords({ id: 'integer' }, 'j')})`

  if (input.action === 'status') {
    const status = input.status
    if (status === undefined) throw new InvalidInputError(ISSUE_MESSAGES.status)
    const note = normalizeNote(input.note)
    if (db.dialect.historyAppliesStatus) {
      // MySQL: the history rows apply the change themselves (migration 0019), one statement and one request on
      // PlanetScale; a missing issue fails its row's foreign key and the statement writes nothing.
      try {
        await db.batch([appliedHistoryInsert(scope, { ids, status, note, at: now, actor: actor.label }, newChangeToken())])
      } catch (error) {
        if (isMissingIssue(error)) await throwMissingIssue(scope, ids, idsJson, inIds)
        throw error
      }
      return { action: 'status', status, note, updated: ids.length, ids }
    }
    // The existence check rides in the writes (issue 18): each writes only if every issue exists, so a missing
    // one leaves everything unwritten, and only then is the check read for the message. The history rows read
    // the statuses under the issues' row locks (dialect.lockingRead), so concurrent changes of the same issues
    // wait for each other and their history chains; the UPDATE counts the issues through a joined derived
    // table (MySQL refuses its own table in a WHERE subquery, error 1093).
    // The count locks the rows it counts too: counting them with shared locks, then locking them for update,
    // deadlocked concurrent changes of the same issues on MySQL (an aggregate cannot carry FOR UPDATE itself).
    const everyIssue = `(SELECT COUNT(*) FROM (SELECT gc.id FROM ${t.groups} gc WHERE gc.id ${inIds}${db.dialect.lockingRead}) gx)`
    const { history } = await namedBatch(db, {
      history: {
        sql: `INSERT INTO ${t.history} (group_id, from_status, to_status, note, created_at, actor)
          SELECT g.id, g.status, ?, ?, ?, ? FROM ${t.groups} g WHERE g.id ${inIds} AND ${everyIssue} = ?${db.dialect.lockingRead}`,
        args: [status, note, now, actor.label, idsJson, idsJson, ids.length],
      },
      status: db.dialect.updateFrom(
        t.groups,
        'G',
        { status: sql`${status}`, status_updated_at: sql`${now}` },
        new Fragment(`(SELECT COUNT(*) AS c FROM ${t.groups} gc WHERE gc.id ${inIds}) k`, [idsJson]),
        new Fragment(`G.id ${inIds} AND k.c = ?`, [idsJson, ids.length]),
      ),
    })
    if (history.rowsAffected !== ids.length) await throwMissingIssue(scope, ids, idsJson, inIds)
    return { action: 'status', status, note, updated: ids.length, ids }
  }

  const tagId = toPositiveInteger(input.tag_id)
  if (tagId === null) throw new InvalidInputError(BULK_MESSAGES.tagRequired)
  const { rows } = await db.execute({
    sql: `SELECT (SELECT COUNT(*) FROM ${t.tags} WHERE id = ?) AS tag_exists, (SELECT COUNT(*) FROM ${t.groups} WHERE id ${inIds}) AS found`,
    args: [tagId, idsJson],
  })
  if (Number(rows[0]!.tag_exists) === 0) throw new InvalidInputError(`Tag ${tagId} does not exist in this application.`)
  if (Number(rows[0]!.found) !== ids.length) throw new InvalidInputError(BULK_MESSAGES.someMissing)
  const write: Statement =
    input.action === 'add_tag'
      ? {
          sql: upsertManualAssignments(scope, `SELECT g.id, ?, 'manual', ? FROM ${t.groups} g WHERE g.id ${inIds}`),
          args: [tagId, now, idsJson],
        }
      : { sql: `DELETE FROM ${t.groupTags} WHERE tag_id = ? AND group_id ${inIds}`, args: [tagId, idsJson] }
  await db.batch([write])
  return { action: input.action, tag_id: tagId, updated: ids.length, ids }
}

/** The error of a status change that wrote nothing: the first issue that does not exist. */
async function throwMissingIssue(scope: AppScope, ids: readonly number[], idsJson: string, inIds: string): Promise<never> {
  const { rows } = await scope.db.execute({ sql: `SELECT id FROM ${scope.t.groups} WHERE id ${inIds}`, args: [idsJson] })
  const found = new Set(rows.map((row) => Number(row.id)))
  const missing = ids.find((id) => !found.has(id))
  // Every issue exists again by now (one was deleted and the write skipped, then …): still nothing was written.
  throw new InvalidInputError(missing === undefined ? BULK_MESSAGES.someMissing : `Issue ${missing} does not exist in this application.`)
}

/** Positive integer ids, de-duplicated in order; 1–200 of them. */
function readIds(values: unknown[]): number[] {
  const ids: number[] = []
  for (const value of values) {
    const id = toPositiveInteger(value)
    if (id === null) throw new InvalidInputError('ids must contain positive integer issue ids.')
    if (!ids.includes(id)) ids.push(id)
  }
  if (ids.length < 1 || ids.length > MAX_BULK_IDS) throw new InvalidInputError(BULK_MESSAGES.idsCount)
  return ids
}
