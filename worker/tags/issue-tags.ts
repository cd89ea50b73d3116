import type { Statement } from '../../drivers/driver.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { TAG_MESSAGES } from '../../shared/schemas/tag.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { NotFoundError } from '../errors.ts'
import { ISSUE_NOT_FOUND } from '../issues/issue-messages.ts'
import { upsertManualAssignments } from './manual-assignment.ts'

export interface IssueTagChange {
  readonly groupId: number
  readonly tagId: number
  readonly action: 'add' | 'remove'
}

/**
 * `POST ?api=issue-tags` (seed §4.3): `add` upserts the assignment as manual — turning a rule-made one into
 * a manual one so later rule passes cannot undo it; `remove` deletes it whatever its source. The same batch
 * reports whether the issue and the tag exist, so unknown ids are a 404 without a separate read (run after the
 * commit on PlanetScale: the write is then one statement, no BEGIN/COMMIT — issue 18).
 */
export async function changeIssueTag(scope: AppScope, change: IssueTagChange, now: string): Promise<IssueTagChange> {
  const { t, db } = scope
  const write: Statement =
    change.action === 'add'
      ? {
          sql: upsertManualAssignments(scope, `SELECT g.id, tg.id, 'manual', ? FROM ${t.groups} g, ${t.tags} tg WHERE g.id = ? AND tg.id = ?`),
          args: [now, change.groupId, change.tagId],
        }
      : { sql: `DELETE FROM ${t.groupTags} WHERE group_id = ? AND tag_id = ?`, args: [change.groupId, change.tagId] }
  const { existence } = await namedBatch(db, {
    write,
    existence: {
      sql: `SELECT (SELECT COUNT(*) FROM ${t.groups} WHERE id = ?) AS issue_exists, (SELECT COUNT(*) FROM ${t.tags} WHERE id = ?) AS tag_exists`,
      args: [change.groupId, change.tagId],
    },
  }, { readBack: ['existence'] })
  const row = existence.rows[0]!
  if (Number(row.issue_exists) === 0) throw new NotFoundError(ISSUE_NOT_FOUND)
  if (Number(row.tag_exists) === 0) throw new NotFoundError(TAG_MESSAGES.notFound)
  return change
}
