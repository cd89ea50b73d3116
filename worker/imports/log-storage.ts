import type { Env } from '../env.ts'
import { OperationalError } from '../errors.ts'

/** R2 layout per application (design.md §3, docs/ingestion.md): the drop folder and the archive. */
export const incomingPrefix = (appId: string) => `incoming/${appId}/`
export const processedPrefix = (appId: string) => `processed/${appId}/`

export const STORAGE_MISSING_MESSAGE = 'Log storage is not configured: bind an R2 bucket as LOGS (see docs/ingestion.md).'

/** The `LOGS` bucket, or a 400 naming the missing binding. */
export function logBucket(env: Env): R2Bucket {
  if (!env.LOGS) throw new OperationalError(STORAGE_MISSING_MESSAGE)
  return env.LOGS
}

/** Every object under a prefix, page by page (R2 lists at most 1000 keys per call). */
export async function listObjects(bucket: R2Bucket, prefix: string): Promise<R2Object[]> {
  const objects: R2Object[] = []
  let cursor: string | undefined
  for (;;) {
    const page = await bucket.list({ prefix, cursor })
    objects.push(...page.objects)
    if (!page.truncated) return objects
    cursor = page.cursor
  }
}

/** `length` bytes from `offset` with an R2 range read; null when the object does not exist. */
export async function readRange(bucket: R2Bucket, key: string, offset: number, length: number): Promise<Uint8Array | null> {
  if (length <= 0) return (await bucket.head(key)) ? new Uint8Array() : null
  const object = await bucket.get(key, { range: { offset, length } })
  return object ? new Uint8Array(await object.arrayBuffer()) : null
}
