import type { AppScope } from '../apps/app-scope.ts'
import type { Deps } from '../deps.ts'
import { MalformedRequestError } from '../errors.ts'
import { importUnderLock, runRequestImport, type ImportResponse } from './conclude-run.ts'
import { reapAndListJobs, type ImportJob } from './import-jobs.ts'
import { incomingPrefix, logBucket } from './log-storage.ts'

/** A log file sent in the request body (`?file=<module>/<name>`), already validated by the handler. */
export interface Upload {
  readonly path: string
  /** The body as a stream of exactly `length` bytes, or bytes already read (chunked uploads). */
  readonly body: ReadableStream<Uint8Array> | Uint8Array
  readonly length: number
}

/**
 * `POST ?api=import-incoming` (reference §6): under the application's import lock, stores the upload (if any)
 * in `incoming/<app>/<path>`, archives every incoming file, imports within the request's budget and hands any
 * rest to a background job. A held lock is a 400 and stores nothing.
 */
export async function importIncoming(deps: Deps, scope: AppScope, upload: Upload | null): Promise<ImportResponse> {
  const bucket = logBucket(deps.env)
  return importUnderLock(deps, scope, async (lock) => {
    if (upload) await storeUpload(bucket, `${incomingPrefix(scope.app.id)}${upload.path}`, upload)
    return runRequestImport(deps, scope, bucket, lock, { kind: 'import-incoming', scanIncoming: true })
  })
}

/** `GET ?api=import-incoming`: recent jobs (stale ones reaped first) and the work still pending. */
export async function importStatus(scope: AppScope, now: Date): Promise<{ data: ImportJob[]; pending: { files: number; bytes: number } }> {
  const [data, pending] = await Promise.all([
    reapAndListJobs(scope, now),
    scope.db.execute({
      sql: `SELECT COUNT(*) AS files, COALESCE(SUM(s.size - f.next_offset), 0) AS bytes
        FROM ${scope.t.sourceFiles} s JOIN ${scope.t.fileImports} f ON f.source_file_id = s.id WHERE f.next_offset < s.size`,
    }),
  ])
  const row = pending.rows[0] ?? {}
  return { data, pending: { files: Number(row.files ?? 0), bytes: Number(row.bytes ?? 0) } }
}

async function storeUpload(bucket: R2Bucket, key: string, upload: Upload): Promise<void> {
  if (upload.body instanceof Uint8Array) {
    await bucket.put(key, upload.body)
    return
  }
  try {
    // R2 needs the length of a streamed body up front; FixedLengthStream also refuses a body that lies about it.
    await bucket.put(key, upload.body.pipeThrough(new FixedLengthStream(upload.length)))
  } catch {
    throw new MalformedRequestError('The request body ended before its Content-Length, or ran past it.')
  }
}
