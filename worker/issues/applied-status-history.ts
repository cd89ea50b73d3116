import { DriverError } from '../../drivers/driver-error.ts'
import type { Statement } from '../../drivers/driver.ts'
import type { IssueStatus } from '../../shared/constants.ts'
import type { AppScope } from '../apps/app-scope.ts'

/**
 * Where the dialect says so (`historyAppliesStatus`: MySQL, migration 0019), a status change is its history
 * rows alone: each row inserted with a `change_token` reads its `from_status` under the issue's row lock and
 * moves the issue to its `to_status` in a trigger. One `INSERT … VALUES` is atomic on its own, so PlanetScale
 * sends one request instead of BEGIN, history, UPDATE, read and COMMIT (issue 18). The token then finds the
 * rows again after the write — history rows never change, so the read-back is exact whatever commits between.
 */
export interface AppliedStatusChange {
  readonly ids: readonly number[]
  readonly status: IssueStatus
  readonly note: string | null
  readonly at: string
  readonly actor: string
}

/** A fresh token: 32 hex digits from a random UUID (the column is CHAR(32)). */
export function newChangeToken(): string {
  return crypto.randomUUID().replaceAll('-', '')
}

/**
 * The one INSERT of a change of every issue in `change.ids`. Rows go in id order, so two bulk changes of
 * overlapping issues take the issues' row locks in the same order and wait instead of deadlocking.
 */
export function appliedHistoryInsert(scope: AppScope, change: AppliedStatusChange, token: string): Statement {
  const ids = [...change.ids].sort((a, b) => a - b)
  return {
    sql: `INSERT INTO ${scope.t.history} (group_id, to_status, note, created_at, actor, change_token) VALUES ${ids.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
    args: ids.flatMap((id) => [id, change.status, change.note, change.at, change.actor, token]),
  }
}

/** An issue that does not exist fails its history row's foreign key, and the statement wrote nothing. */
export function isMissingIssue(error: unknown): boolean {
  return error instanceof DriverError && error.code === 'constraint'
}
