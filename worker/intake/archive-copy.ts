import { OperationalError } from '../errors.ts'
import type { LogStore, StoredLog } from './log-store.ts'

export const OBJECT_CHANGED_MESSAGE = 'The file changed or disappeared while it was being imported; try again.'

/**
 * Copies an incoming or staged object to its archive key and returns the SHA-256 of its content, which tells
 * the same bytes arriving under another name (content-duplicates.ts). The store copies only while the object
 * is still the one listed; a changed or vanished one is a failure to retry.
 */
export async function archiveCopy(logs: LogStore, object: StoredLog, key: string, origin: string): Promise<string> {
  const sha256 = await logs.copy(object, key, origin)
  if (sha256 === null) throw new OperationalError(OBJECT_CHANGED_MESSAGE)
  return sha256
}
