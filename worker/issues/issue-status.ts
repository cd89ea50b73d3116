import { ISSUE_STATUSES, type IssueStatus } from '../../shared/constants.ts'
import { readRow } from '../../drivers/read-row.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import type { StatusChangeResult } from '../../shared/api.ts'
import type { Actor } from '../actor.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { NotFoundError } from '../errors.ts'
import { ISSUE_NOT_FOUND } from './issue-messages.ts'
import type { HookServices, Plugin } from '../plugins/plugin.ts'
import { decodePluginSettings, readPluginSettings, settingValues } from '../plugins/plugin-settings.ts'
import { runPluginHook } from '../plugins/run-plugin-hook.ts'
import { toTimestamp } from '../time.ts'
import { appliedHistoryInsert, isMissingIssue, newChangeToken } from './applied-status-history.ts'
import type { QueryResult } from '../../drivers/driver.ts'

export interface StatusChange {
  readonly id: number
  readonly status: IssueStatus
  /** Trimmed; empty becomes null (reference §2.8). */
  readonly note: string | null
}


/**
 * `POST ?api=issue-status`: any status may go to any status, the same one included (reference §2.8). The
 * history row (taking `from_status` from the row before it changes), the update and the read-back are one
 * atomic batch — one round trip; an unknown issue writes nothing and is a 404. The history row's read locks the
 * issue's row, so concurrent changes of one issue leave a history whose rows chain (each `from_status` the
 * previous `to_status`). On MySQL the history row itself applies the change (migration 0019,
 * applied-status-history.ts): one statement, then the read-back after it.
 */
export async function changeIssueStatus(scope: AppScope, change: StatusChange, actor: Actor, now: Date, plugins: readonly Plugin[], services: HookServices): Promise<StatusChangeResult> {
  const { t, db } = scope
  const at = toTimestamp(now)
  // The plugins' switches are read in the same batch when one could have a hook to run: no extra round trip.
  const hooked = plugins.filter((plugin) => plugin.status === 'active' && plugin.hooks?.statusChanged)
  const reads = hooked.map((plugin) => plugin.statusChangeReads?.(scope, change.id) ?? [])
  const settingKeys = hooked.flatMap((plugin) => plugin.statusChangeSettings ?? [])
  // MySQL: the history row applies the change itself (migration 0019), so the write is one statement and
  // the from_status is read back by its token after it (issue 18: PlanetScale sends a request per statement).
  const token = db.dialect.historyAppliesStatus ? newChangeToken() : null
  const applied = token === null ? null : appliedHistoryInsert(scope, { ids: [change.id], status: change.status, note: change.note, at, actor: actor.label }, token)
  const { latest, switches, prefetched } = await namedBatch(
    db,
    {
      // The history row reads the status under the issue's row lock (dialect.lockingRead): a concurrent change
      // of the same issue waits for this batch, and then reads the status it left (PostgreSQL re-reads the
      // locked row), so the history chains. The lock used to be a statement of its own (issue 18).
      history: applied ?? {
        sql: `INSERT INTO ${t.history} (group_id, from_status, to_status, note, created_at, actor)
          SELECT id, status, ?, ?, ?, ? FROM ${t.groups} WHERE id = ?${db.dialect.lockingRead}`,
        args: [change.status, change.note, at, actor.label, change.id],
      },
      status: applied ? null : { sql: `UPDATE ${t.groups} SET status = ?, status_updated_at = ? WHERE id = ?`, args: [change.status, at, change.id] },
      latest:
        token === null
          ? { sql: `SELECT from_status FROM ${t.history} WHERE group_id = ? ORDER BY id DESC LIMIT 1`, args: [change.id] }
          : { sql: `SELECT from_status FROM ${t.history} WHERE group_id = ? AND change_token = ?`, args: [change.id, token] },
      // The switches, and the setting keys hooks declare (the same table: one statement).
      switches: hooked.length > 0 ? readPluginSettings(scope, hooked, settingKeys) : null,
      // What the hooks will need: settings and links, which the status change does not write — so on
      // PlanetScale they run after the commit, concurrently, instead of inside the transaction.
      prefetched: reads.flat(),
    },
    { readBack: token === null ? ['switches', 'prefetched'] : ['latest', 'switches', 'prefetched'] },
  ).catch((error: unknown) => {
    if (token !== null && isMissingIssue(error)) throw new NotFoundError(ISSUE_NOT_FOUND)
    throw error
  })
  const row = latest.rows[0]
  if (!row) throw new NotFoundError(ISSUE_NOT_FOUND)
  const { from_status: fromStatus } = readRow(row, { from_status: ISSUE_STATUSES }, 'status history')
  const result: StatusChangeResult = { id: change.id, from_status: fromStatus, status: change.status, note: change.note }
  if (!switches) return result
  const changed = { scope, now, services, issueId: change.id, fromStatus: result.from_status, status: change.status, note: change.note }
  // Each plugin gets the results of its own reads, in the order it listed them.
  const byPlugin = new Map<Plugin, QueryResult[]>()
  let offset = 0
  hooked.forEach((plugin, index) => {
    byPlugin.set(plugin, prefetched.slice(offset, offset + reads[index]!.length))
    offset += reads[index]!.length
  })
  const outcomes = await runPluginHook({
    plugins: hooked,
    scope,
    hook: 'statusChanged',
    now,
    settings: decodePluginSettings(hooked, switches.rows),
    call: (hooks, plugin) =>
      hooks.statusChanged?.({ ...changed, prefetched: byPlugin.get(plugin) ?? [], settingValues: settingValues(switches.rows, plugin.statusChangeSettings ?? []) }),
  })
  return { ...Object.fromEntries(outcomes), ...result }
}

/** Notes are trimmed and an empty note is no note. */
export function normalizeNote(note: string | null | undefined): string | null {
  const trimmed = note?.trim()
  return trimmed ? trimmed : null
}
