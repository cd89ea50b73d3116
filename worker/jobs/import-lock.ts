import type { Statement } from '../../drivers/driver.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { OperationalError } from '../errors.ts'
import { randomToken } from '../digest/persist/random-token.ts'
import { toTimestamp } from '../time.ts'

/** The reference's message (§6 "import-incoming"): one import per application at a time. */
export const IMPORT_RUNNING_MESSAGE = 'An incoming import is already running for this application.'

const LOCK_KEY = 'import.lock'
/** A holder that stops renewing (a crashed isolate) loses the lock after this long. */
export const LOCK_TTL_SECONDS = 120

/** A held lock: renew it while working, release it when done. */
export interface ImportLock {
  readonly token: string
  renew(now: Date): Promise<void>
  /** The renewal as a statement, to ride along in another batch. */
  renewStatement(now: Date): Statement
  release(): Promise<void>
}

/**
 * Takes the application's import lock, or returns null when someone else holds a live one. The lock is a
 * row in `app_settings`: an expired row is deleted, the row is insert-ignored with a fresh token, and the
 * stored token is read back — one atomic batch, so exactly one contender wins.
 */
export async function acquireImportLock(scope: AppScope, now: Date): Promise<ImportLock | null> {
  const { t, db } = scope
  const d = db.dialect
  const key = d.quote('key')
  const token = randomToken()
  const expired = toTimestamp(new Date(now.getTime() - LOCK_TTL_SECONDS * 1000))
  const { holder } = await namedBatch(db, {
    expire: { sql: `DELETE FROM ${t.settings} WHERE ${key} = ? AND updated_at < ?`, args: [LOCK_KEY, expired] },
    take: { sql: d.insertIgnore(t.settings, [key, 'value', 'updated_at'], 'VALUES (?, ?, ?)', [key]), args: [LOCK_KEY, token, toTimestamp(now)] },
    holder: { sql: `SELECT value FROM ${t.settings} WHERE ${key} = ?`, args: [LOCK_KEY] },
  })
  if (holder.rows[0]?.value !== token) return null
  const renewStatement = (at: Date): Statement => ({
    sql: `UPDATE ${t.settings} SET updated_at = ? WHERE ${key} = ? AND value = ?`,
    args: [toTimestamp(at), LOCK_KEY, token],
  })
  return {
    token,
    renewStatement,
    renew: async (at) => {
      await db.execute(renewStatement(at))
    },
    release: async () => {
      await db.execute({ sql: `DELETE FROM ${t.settings} WHERE ${key} = ? AND value = ?`, args: [LOCK_KEY, token] })
    },
  }
}

/** Runs `work` under the lock; a held lock is the reference's 400. */
export async function withImportLock<T>(scope: AppScope, now: Date, work: (lock: ImportLock) => Promise<T>): Promise<T> {
  const lock = await acquireImportLock(scope, now)
  if (!lock) throw new OperationalError(IMPORT_RUNNING_MESSAGE)
  try {
    return await work(lock)
  } finally {
    await lock.release()
  }
}
