import type { Assignment, AssignableUser } from '../../shared/api.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { InvalidInputError, NotFoundError } from '../errors.ts'
import { ISSUE_NOT_FOUND } from './issue-messages.ts'


/**
 * `POST ?api=assign-issue`. Standalone, the assignable users are the configured list (design.md §3), so an
 * assignee must be one of them and its label comes from the list (a label sent by the client is ignored);
 * with no users configured only unassigning is possible. An empty or missing `assigned_to_id` unassigns.
 * One round trip; an unknown issue is a 404.
 */
export async function assignIssue(
  scope: AppScope,
  request: { id: number; assignedToId: string | null },
  users: readonly AssignableUser[],
): Promise<Assignment> {
  let user: AssignableUser | null = null
  if (request.assignedToId !== null) {
    user = users.find((candidate) => candidate.id === request.assignedToId) ?? null
    if (!user) {
      throw new InvalidInputError(
        users.length ? `User ${request.assignedToId} is not an assignable user.` : 'No assignable users are configured (config assignable_users).',
      )
    }
  }
  const { t, db } = scope
  // Existence is read back rather than taken from rowsAffected: MySQL counts only rows whose values changed.
  // As a read-back it may run after the commit (PlanetScale: one statement, no BEGIN/COMMIT — issue 18).
  const { existence } = await namedBatch(db, {
    assign: { sql: `UPDATE ${t.groups} SET assigned_to_id = ?, assigned_to_label = ? WHERE id = ?`, args: [user?.id ?? null, user?.label ?? null, request.id] },
    existence: { sql: `SELECT COUNT(*) AS found FROM ${t.groups} WHERE id = ?`, args: [request.id] },
  }, { readBack: ['existence'] })
  if (Number(existence.rows[0]!.found) === 0) throw new NotFoundError(ISSUE_NOT_FOUND)
  return { id: request.id, assigned_to_id: user?.id ?? null, assigned_to_label: user?.label ?? null }
}
