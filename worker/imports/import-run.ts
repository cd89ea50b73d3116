import { AppError } from '../errors.ts'
import { toTimestamp } from '../time.ts'
import { budgetExhausted, type Budget, type ImportContext } from './import-context.ts'
import { ARCHIVE_MISSING_MESSAGE, importFile } from './import-file.ts'
import { pendingFiles } from './file-state.ts'
import { isLogFileName } from './log-file-name.ts'
import { incomingPrefix, listObjects } from './log-storage.ts'
import { registerIncoming } from './register-incoming.ts'
import type { FolderModule } from './module-for-folder.ts'

export const NOT_A_LOG_FILE = 'not a log file (.log, .log.N, .jsonl or .ndjson); left in incoming.'

export interface RunOutcome {
  /** Files that still have bytes to read, and how many bytes. */
  readonly remainingFiles: number
  readonly remainingBytes: number
  /** Files this run read to their end. */
  readonly completedFiles: number
  /** Log bytes this run read. */
  readonly bytesRead: number
}

/**
 * One budgeted import run: optionally moves everything under `incoming/<app>/` into the archive first
 * (cheap: a streamed copy per file), then reads pending files from their checkpoints, oldest first, until the
 * budget is spent. A file that fails is reported as `"path: message"` and the run goes on; a database failure
 * ends the run (everything stored so far stays, and the next run resumes from the checkpoints).
 */
export async function runImport(ctx: ImportContext, options: { readonly scanIncoming: boolean; readonly budget: Budget }): Promise<RunOutcome> {
  const { scope, bucket } = ctx
  if (options.scanIncoming) {
    const prefix = incomingPrefix(scope.app.id)
    const modules = new Map<string, FolderModule | null>()
    for (const object of await listObjects(bucket, prefix)) {
      const relative = object.key.slice(prefix.length)
      if (!isLogFileName(relative.slice(relative.lastIndexOf('/') + 1))) {
        ctx.result.errors.push(`${relative}: ${NOT_A_LOG_FILE}`)
        continue
      }
      await attempt(ctx, relative, () => registerIncoming(ctx, object, modules))
    }
  }
  let completedFiles = 0
  for (const file of await pendingFiles(scope)) {
    if (budgetExhausted(options.budget)) break
    const name = file.origin_path ?? file.path
    const outcome = await attempt(ctx, name, () => importFile(ctx, file, options.budget), async (message) => {
      // A file whose archive is gone can never be read: stop treating it as pending.
      if (message === ARCHIVE_MISSING_MESSAGE) {
        await scope.db.execute({ sql: `UPDATE ${scope.t.fileImports} SET next_offset = ?, updated_at = ? WHERE source_file_id = ?`, args: [file.size, toTimestamp(ctx.now()), file.id] })
      }
    })
    if (outcome?.done) completedFiles++
  }
  const remaining = await pendingFiles(scope)
  ctx.result.files = ctx.touched.size
  return {
    remainingFiles: remaining.length,
    remainingBytes: remaining.reduce((sum, file) => sum + (file.size - file.next_offset), 0),
    completedFiles,
    bytesRead: options.budget.initial - options.budget.bytes,
  }
}

/** Runs one file's step; an application error becomes a `"name: message"` entry, anything else propagates. */
async function attempt<T>(ctx: ImportContext, name: string, work: () => Promise<T>, onFailure?: (message: string) => Promise<void>): Promise<T | undefined> {
  try {
    return await work()
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    ctx.result.errors.push(`${name}: ${error.message}`)
    await onFailure?.(error.message)
    return undefined
  }
}
