import { toTimestamp } from '../time.ts'
import { budgetExhausted, type Budget, type ImportContext } from './import-context.ts'
import { ARCHIVE_MISSING_MESSAGE, importFile } from '../digest/digest-file.ts'
import { clearFailure, failureMessage, fileRef, isOutage, isSetAside, objectRef, recordFailure, type FailureSubject } from './failed-files.ts'
import { pendingFiles } from './file-state.ts'
import { isLogFileName } from '../intake/log-file-name.ts'
import { incomingPrefix, stagedPath } from '../intake/log-storage.ts'
import { stagedUploads } from '../intake/pending-work.ts'
import { registerIncoming } from '../intake/register-incoming.ts'
import type { FolderModule } from '../intake/module-for-folder.ts'
import type { StoredLog } from '../intake/log-store.ts'

export const NOT_A_LOG_FILE = 'not a log file (.log, .log.N, .jsonl or .ndjson); left in incoming.'

export interface RunOutcome {
  /** Files that still have bytes to read (uploads not archived yet included), and how many bytes. */
  readonly remainingFiles: number
  readonly remainingBytes: number
  /** Files this run read to their end. */
  readonly completedFiles: number
  /** Log bytes this run read. */
  readonly bytesRead: number
}

/**
 * One budgeted import run: optionally moves everything under `incoming/<app>/` into the archive first, then
 * every staged upload (`uploads/<app>/`, in arrival order, until the run's time is up), then reads pending
 * files from their checkpoints, oldest first, until the budget is spent. Registration is cheap (a streamed
 * copy per file) and every run does it, so an upload accepted while another run held the lock is picked up
 * by whichever run comes next. A file or object that fails is reported as `"path: message"`, counted
 * (import-failures.ts: set aside after `ingestion.max_file_attempts`), and the run goes on with the others;
 * only a database outage ends the run (everything stored so far stays; the next run resumes).
 */
export async function runImport(ctx: ImportContext, options: { readonly scanIncoming: boolean; readonly budget: Budget }): Promise<RunOutcome> {
  const { scope, logs } = ctx
  const modules = new Map<string, FolderModule | null>()
  if (options.scanIncoming) {
    const prefix = incomingPrefix(scope.app.id)
    for (const object of await logs.list(prefix)) {
      const relative = object.key.slice(prefix.length)
      if (!isLogFileName(relative.slice(relative.lastIndexOf('/') + 1))) {
        ctx.result.errors.push(`${relative}: ${NOT_A_LOG_FILE}`)
        continue
      }
      await registerObject(ctx, object, relative, modules)
    }
  }
  for (const object of await stagedUploads(logs, scope, setAsideObjects(ctx))) {
    if (Date.now() >= options.budget.deadline) break
    await registerObject(ctx, object, stagedPath(scope.app.id, object.key), modules)
  }
  let completedFiles = 0
  for (const file of await pendingFiles(scope)) {
    if (budgetExhausted(options.budget)) break
    const subject = { ref: fileRef(file.id), path: file.origin_path ?? file.path, sourceFileId: file.id, etag: null }
    const outcome = await attempt(ctx, subject, () => importFile(ctx, file, options.budget), async (message) => {
      if (message !== ARCHIVE_MISSING_MESSAGE) return false
      // A file whose archive is gone can never be read: stop treating it as pending (not a failure to retry).
      await scope.db.execute({ sql: `UPDATE ${scope.t.fileImports} SET next_offset = ?, updated_at = ? WHERE source_file_id = ?`, args: [file.size, toTimestamp(ctx.now()), file.id] })
      return true
    })
    if (outcome?.done) completedFiles++
  }
  // Uploads that arrived during the run count as remaining, so the run hands over instead of closing.
  const [remaining, staged] = await Promise.all([pendingFiles(scope), stagedUploads(logs, scope, setAsideObjects(ctx))])
  ctx.result.files = ctx.touched.size
  return {
    remainingFiles: remaining.length + staged.length,
    remainingBytes: remaining.reduce((sum, file) => sum + (file.size - file.next_offset), 0) + staged.reduce((sum, object) => sum + object.size, 0),
    completedFiles,
    bytesRead: options.budget.initial - options.budget.bytes,
  }
}

/** Archives one incoming or staged object, unless it was set aside (then it waits for a retry). */
async function registerObject(ctx: ImportContext, object: StoredLog, relative: string, modules: Map<string, FolderModule | null>): Promise<void> {
  const ref = await objectRef(object.key)
  if (isSetAside(ctx.failures.get(ref), object.etag)) return
  await attempt(ctx, { ref, path: relative, sourceFileId: null, etag: object.etag }, () => registerIncoming(ctx, object, relative, modules))
}

/** The refs of set-aside objects, from the failure rows the run read at its start. */
function setAsideObjects(ctx: ImportContext): Set<string> {
  return new Set([...ctx.failures.values()].filter((row) => row.source_file_id === null && row.failed_at !== null).map((row) => row.ref))
}

/**
 * Runs one file's step. A failure becomes a `"path: message"` entry and one counted attempt, unless
 * `handled` dealt with it; a database outage propagates. A success after earlier failures clears them.
 */
async function attempt<T>(ctx: ImportContext, subject: FailureSubject, work: () => Promise<T>, handled?: (message: string) => Promise<boolean>): Promise<T | undefined> {
  let result: T
  try {
    result = await work()
  } catch (error) {
    if (isOutage(error)) throw error
    const message = failureMessage(error)
    ctx.result.errors.push(`${subject.path}: ${message}`)
    if (!(await handled?.(message))) await recordFailure(ctx, subject, message)
    return undefined
  }
  await clearFailure(ctx, subject.ref)
  return result
}
