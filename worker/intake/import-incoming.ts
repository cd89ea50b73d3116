import type { ImportAccepted, ImportStatus } from '../../shared/api.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import type { AppScope } from '../apps/app-scope.ts'
import type { Deps } from '../deps.ts'
import { MalformedRequestError, NotFoundError } from '../errors.ts'
import { appSettings, settingValue } from '../settings/app-settings.ts'
import { parseSeverities, SEVERITIES_KEY } from '../settings/ingestion-settings.ts'
import { continueInBackground, importUnderLock, runRequestImport, type ImportResponse } from '../jobs/request-import.ts'
import { presentFailure, setAsideStatement, toFailureRow } from '../jobs/failed-files.ts'
import { listJobsStatement, reapStatement, toJob } from '../jobs/job-records.ts'
import { emptyResult, presentResult } from '../jobs/import-result.ts'
import { requireLogs, stagingKey, uploadsPrefix } from './log-storage.ts'
import { countRow, pendingFilesStatement, setAsideObjectsStatement, stagedUploads, withoutSetAside, withStaged } from './pending-work.ts'
import type { LogStore } from './log-store.ts'

/** A log file sent in the request body (`?file=<module>/<name>`), already validated by the handler. */
export interface Upload {
  readonly path: string
  /** The body as a stream of exactly `length` bytes, or bytes already read (chunked uploads). */
  readonly body: ReadableStream<Uint8Array> | Uint8Array
  readonly length: number
}

export type { ImportAccepted }

/**
 * `POST ?api=import-incoming` (reference §6): stores the upload (if any), then, under the application's
 * import lock, archives every incoming file and staged upload, imports within the request's budget and hands
 * any rest to a background job. The upload is stored before the lock is asked for, under a key of its own
 * (`stagingKey`), so it is never lost: when another import holds the lock it is accepted (`202`,
 * `ImportAccepted`) and imported by that import or by the job this call makes sure of
 * (conclude-run.ts `startStagedUploads`). Without an upload a held lock is the reference's 400.
 */
export async function importIncoming(deps: Deps, scope: AppScope, upload: Upload | null): Promise<ImportResponse | ImportAccepted> {
  const logs = requireLogs(deps)
  if (upload) await storeUpload(logs, stagingKey(scope.app.id, upload.path, deps.now()), upload)
  return importUnderLock(
    deps,
    scope,
    (lock) => runRequestImport(deps, scope, logs, lock, { kind: 'import-incoming', scanIncoming: true }),
    upload ? () => acceptUpload(deps, scope, logs) : undefined,
  )
}

/**
 * `POST ?api=import-incoming` `{"retry": id}`: gives a set-aside file (`GET … failed`) fresh attempts and
 * imports, like "Process logs". Under the lock, so a held lock is the 400 and changes nothing.
 */
export async function retrySetAside(deps: Deps, scope: AppScope, id: number): Promise<ImportResponse> {
  const logs = requireLogs(deps)
  return importUnderLock(deps, scope, async (lock) => {
    const deleted = await scope.db.execute({ sql: `DELETE FROM ${scope.t.importFailures} WHERE id = ?`, args: [id] })
    if (deleted.rowsAffected === 0) throw new NotFoundError(`No set-aside file has id ${id}.`)
    return runRequestImport(deps, scope, logs, lock, { kind: 'import-incoming', scanIncoming: true })
  })
}

/** The `202` of an upload stored while another import holds the lock: the work pending and the job doing it. */
async function acceptUpload(deps: Deps, scope: AppScope, logs: LogStore): Promise<ImportAccepted> {
  const { stored, files, setAside } = await namedBatch(
    scope.db,
    { stored: appSettings.read(scope, SEVERITIES_KEY), files: pendingFilesStatement(scope), setAside: setAsideObjectsStatement(scope) },
    { mode: 'read' },
  )
  const staged = await stagedUploads(logs, scope, new Set(setAside.rows.map((row) => String(row.ref))))
  const pending = withStaged(countRow(files.rows[0]), staged)
  const job = await continueInBackground(deps, scope, 'import-incoming', pending)
  const result = presentResult(emptyResult(parseSeverities(settingValue(stored.rows))))
  return { accepted: true, ...result, already_ingested: [], retention: null, pending, job }
}

/**
 * `GET ?api=import-incoming`: recent jobs (stale ones reaped first), the work still pending — staged uploads
 * included — and the files set aside after repeated failures. One database round trip and one R2 list.
 */
export async function importStatus(deps: Deps, scope: AppScope): Promise<ImportStatus> {
  const logs = deps.logs
  const [{ jobs, files, failed, setAside }, objects] = await Promise.all([
    namedBatch(scope.db, {
      reap: reapStatement(scope, deps.now()),
      jobs: listJobsStatement(scope),
      files: pendingFilesStatement(scope),
      failed: setAsideStatement(scope),
      setAside: setAsideObjectsStatement(scope),
    }),
    logs ? logs.list(uploadsPrefix(scope.app.id)) : [],
  ])
  const staged = await withoutSetAside(objects, new Set(setAside.rows.map((row) => String(row.ref))))
  return {
    data: jobs.rows.map(toJob),
    pending: withStaged(countRow(files.rows[0]), staged),
    failed: failed.rows.map((row) => presentFailure(toFailureRow(row))),
  }
}

async function storeUpload(logs: LogStore, key: string, upload: Upload): Promise<void> {
  if (upload.body instanceof Uint8Array) {
    await logs.write(key, upload.body, upload.length)
    return
  }
  try {
    await logs.write(key, upload.body, upload.length)
  } catch {
    throw new MalformedRequestError('The request body ended before its Content-Length, or ran past it.')
  }
}
