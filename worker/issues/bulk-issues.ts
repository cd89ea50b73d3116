import type { Statement } from '../../drivers/driver.ts'
import type { BulkResult } from '../../shared/api.ts'
import { toPositiveInteger } from '../../shared/schemas/fields.ts'
import { BULK_MESSAGES, ISSUE_MESSAGES, type BulkIssuesInput } from '../../shared/schemas/issue.ts'
import type { Actor } from '../actor.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { InvalidInputError } from '../errors.ts'
import { normalizeNote } from './issue-status.ts'
import { upsertManualAssignments } from '../tags/manual-assignment.ts'

export const MAX_BULK_IDS = 200

/**
 * `POST ?api=bulk-issues` (reference §3.1): a status change or a tag added/removed on 1–200 issues,
 * all-or-nothing. One read checks that every issue (and the tag) exists, then one atomic batch writes —
 * two round trips whatever the number of issues (ids travel as one JSON parameter).
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
    const { rows } = await db.execute({ sql: `SELECT id FROM ${t.groups} WHERE id ${inIds}`, args: [idsJson] })
    const found = new Set(rows.map((row) => Number(row.id)))
    const missing = ids.find((id) => !found.has(id))
    if (missing !== undefined) throw new InvalidInputError(`Issue ${missing} does not exist in this application.`)
    // The history rows read the statuses under the issues' row locks (dialect.lockingRead), so concurrent
    // changes of the same issues wait for each other and their history chains.
    await db.batch([
      {
        sql: `INSERT INTO ${t.history} (group_id, from_status, to_status, note, created_at, actor)
          SELECT g.id, g.status, ?, ?, ?, ? FROM ${t.groups} g WHERE g.id ${inIds}${db.dialect.lockingRead}`,
        args: [status, note, now, actor.label, idsJson],
      },
      { sql: `UPDATE ${t.groups} SET status = ?, status_updated_at = ? WHERE id ${inIds}`, args: [status, now, idsJson] },
    ])
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
