import type { IssueStatus } from '../../shared/constants.ts'
import type { StatusChangeResult } from '../../shared/api.ts'
import type { Actor } from '../actor.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { NotFoundError } from '../errors.ts'
import { ISSUE_NOT_FOUND } from './issue-messages.ts'

export interface StatusChange {
  readonly id: number
  readonly status: IssueStatus
  /** Trimmed; empty becomes null (reference §2.8). */
  readonly note: string | null
}


/**
 * `POST ?api=issue-status`: any status may go to any status, the same one included (reference §2.8). The
 * history row (taking `from_status` from the row before it changes), the update and the read-back are one
 * atomic batch — one round trip; an unknown issue writes nothing and is a 404.
 */
export async function changeIssueStatus(scope: AppScope, change: StatusChange, actor: Actor, now: string): Promise<StatusChangeResult> {
  const { t, db } = scope
  const [, , latest] = await db.batch([
    {
      sql: `INSERT INTO ${t.history} (group_id, from_status, to_status, note, created_at, actor)
        SELECT id, status, ?, ?, ?, ? FROM ${t.groups} WHERE id = ?`,
      args: [change.status, change.note, now, actor.label, change.id],
    },
    { sql: `UPDATE ${t.groups} SET status = ?, status_updated_at = ? WHERE id = ?`, args: [change.status, now, change.id] },
    { sql: `SELECT from_status FROM ${t.history} WHERE group_id = ? ORDER BY id DESC LIMIT 1`, args: [change.id] },
  ])
  const row = latest!.rows[0]
  if (!row) throw new NotFoundError(ISSUE_NOT_FOUND)
  return { id: change.id, from_status: row.from_status as IssueStatus, status: change.status, note: change.note }
}

/** Notes are trimmed and an empty note is no note. */
export function normalizeNote(note: string | null | undefined): string | null {
  const trimmed = note?.trim()
  return trimmed ? trimmed : null
}
