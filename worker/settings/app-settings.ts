import type { Statement } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'

/**
 * Statements over an application's key/value store (`app_settings`, reference §1.2). Callers put them in
 * their own batches, so a setting can change atomically with the data it governs.
 */
export const appSettings = {
  /** `SELECT value` of one key (no row when unset). */
  read(scope: AppScope, key: string): Statement {
    return { sql: `SELECT value FROM ${scope.t.settings} WHERE ${scope.db.dialect.quote('key')} = ?`, args: [key] }
  },

  /** Insert or overwrite one key. */
  write(scope: AppScope, key: string, value: string, now: string): Statement {
    const d = scope.db.dialect
    const key_ = d.quote('key')
    return {
      sql: d.upsert(scope.t.settings, [key_, 'value', 'updated_at'], 'VALUES (?, ?, ?)', [key_], {
        value: d.incoming('value'),
        updated_at: d.incoming('updated_at'),
      }),
      args: [key, value, now],
    }
  },

  /** Delete one key. */
  remove(scope: AppScope, key: string): Statement {
    return { sql: `DELETE FROM ${scope.t.settings} WHERE ${scope.db.dialect.quote('key')} = ?`, args: [key] }
  },
}

/** The `value` a `read` statement returned, or null. */
export function settingValue(rows: readonly Record<string, unknown>[]): string | null {
  const value = rows[0]?.value
  return typeof value === 'string' ? value : null
}
