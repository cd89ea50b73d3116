import type { Statement } from '../../../drivers/driver.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { appSettings } from '../../settings/app-settings.ts'

/** app_settings key of the scan cursor (reference §4.2: `{group_id, history_id}`). */
export const CURSOR_SETTING = 'alerts.cursor'

/**
 * How far scans have looked: the newest issue id and status-history id already considered, and the claim
 * token of the scan that wrote it. A scan moves the cursor only from the value it read, and stores its alerts
 * only while the cursor holds its own token — so of two scans that read the same cursor, one claims the alerts.
 */
export interface AlertCursor {
  readonly group_id: number
  readonly history_id: number
  readonly claim: string
}

export function parseCursor(value: string | null): AlertCursor | null {
  if (value === null) return null
  try {
    const parsed = JSON.parse(value) as Partial<AlertCursor>
    if (Number.isSafeInteger(parsed.group_id) && Number.isSafeInteger(parsed.history_id) && typeof parsed.claim === 'string') return parsed as AlertCursor
  } catch {
    // A damaged cursor is started again from the current maximum (nothing replayed).
  }
  return null
}

/** The newest issue and status-history ids (one row: `group_id`, `history_id`). */
export function maxIdsStatement(scope: AppScope): Statement {
  const { t } = scope
  return { sql: `SELECT (SELECT COALESCE(MAX(id), 0) FROM ${t.groups}) AS group_id, (SELECT COALESCE(MAX(id), 0) FROM ${t.history}) AS history_id` }
}

/** Starts the cursor at `at` unless a scan already did (enabling alerting never replays the backlog). */
export function initCursorStatement(scope: AppScope, at: AlertCursor, now: string): Statement {
  const d = scope.db.dialect
  const key = d.quote('key')
  return { sql: d.insertIgnore(scope.t.settings, [key, 'value', 'updated_at'], 'VALUES (?, ?, ?)', [key]), args: [CURSOR_SETTING, JSON.stringify(at), now] }
}

/** Moves the cursor from `from` (the value this scan read) to `to`; no-op when another scan moved it first. */
export function moveCursorStatement(scope: AppScope, from: string, to: AlertCursor, now: string): Statement {
  const key = scope.db.dialect.quote('key')
  return { sql: `UPDATE ${scope.t.settings} SET value = ?, updated_at = ? WHERE ${key} = ? AND value = ?`, args: [JSON.stringify(to), now, CURSOR_SETTING, from] }
}

export const readCursorStatement = (scope: AppScope) => appSettings.read(scope, CURSOR_SETTING)
