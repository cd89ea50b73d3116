import type { Deps } from '../deps.ts'
import type { LogStore } from './log-store.ts'
import { OperationalError } from '../errors.ts'

/** R2 layout per application (design.md §3, docs/ingestion.md): the drop folder and the archive. */
export const incomingPrefix = (appId: string) => `incoming/${appId}/`
export const processedPrefix = (appId: string) => `processed/${appId}/`
/** Uploads stored but not yet archived, each under its own key (`stagingKey`). */
export const uploadsPrefix = (appId: string) => `uploads/${appId}/`

/**
 * Where one upload waits for the import lock: `uploads/<app>/<13-digit ms>-<8 hex>/<path>`. Every upload gets
 * its own key, so two concurrent uploads of the same path never overwrite each other before either is
 * registered, and R2 lists keys in lexicographic order, so they are registered in arrival order (the later
 * one then counts as an append, a rotation or unchanged, by the usual rules).
 */
export function stagingKey(appId: string, path: string, now: Date): string {
  const random = crypto.getRandomValues(new Uint8Array(4)).reduce((hex, byte) => hex + byte.toString(16).padStart(2, '0'), '')
  return `${uploadsPrefix(appId)}${String(now.getTime()).padStart(13, '0')}-${random}/${path}`
}

/** The path an upload was sent under (its identity, as if it had been `incoming/<app>/<path>`). */
export function stagedPath(appId: string, key: string): string {
  const rest = key.slice(uploadsPrefix(appId).length)
  return rest.slice(rest.indexOf('/') + 1)
}

export const STORAGE_MISSING_MESSAGE = 'Log storage is not configured: bind an R2 bucket as LOGS (see docs/ingestion.md).'

/** The log store, or a 400 naming the missing binding. */
export function requireLogs(deps: Pick<Deps, 'logs'>): LogStore {
  if (!deps.logs) throw new OperationalError(STORAGE_MISSING_MESSAGE)
  return deps.logs
}
