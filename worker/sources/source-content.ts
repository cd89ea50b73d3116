import type { RawEvent } from '../../shared/api.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { NotFoundError, OperationalError } from '../errors.ts'
import { isSafeRelativePath } from '../intake/log-file-name.ts'
import { processedPrefix } from '../intake/log-storage.ts'
import type { LogStore } from '../intake/log-store.ts'

/** The most `source` returns of one event (reference §3.1: 4 MiB). */
export const SOURCE_MAX_BYTES = 4 * 1024 * 1024
export const SOURCE_UNAVAILABLE = 'The archived source file is unavailable.'
export const OCCURRENCE_NOT_FOUND = 'Occurrence not found.'


const decoder = new TextDecoder()
/** The synthetic source files of HTTP and Sentry ingest (`http-ingest/{module}/{channel}`, reference §4.3). */
const INGEST_SOURCE_PREFIX = 'http-ingest/'

/**
 * `GET ?api=source&occurrence=<id>`: the raw bytes `[byte_start, byte_end)` of one occurrence, read from the
 * archived file with an R2 range request (at most 4 MiB, decoded as UTF-8); for an event that came through
 * HTTP or Sentry ingest, the context it was stored with (JSON). A file outside the application's
 * archive, or gone from it (e.g. pruned), is a 400; an unknown occurrence a 404.
 */
export async function readSourceContent(scope: AppScope, logs: LogStore | null, occurrenceId: number): Promise<RawEvent> {
  const { rows } = await scope.db.execute({
    sql: `SELECT o.byte_start, o.byte_end, o.context_preview, s.path, s.log_type, s.channel FROM ${scope.t.occurrences} o
      JOIN ${scope.t.sourceFiles} s ON s.id = o.source_file_id WHERE o.id = ?`,
    args: [occurrenceId],
  })
  const row = rows[0]
  if (!row) throw new NotFoundError(OCCURRENCE_NOT_FOUND)
  const path = String(row.path)
  const start = Number(row.byte_start)
  const end = Number(row.byte_end)
  const channel = (row.channel as string | null) ?? null
  // HTTP and Sentry ingest keep no file: what the event carried is its stored context (docs/ingest.md).
  if (path.startsWith(INGEST_SOURCE_PREFIX)) return { byte_start: start, byte_end: end, path, log_type: String(row.log_type), channel, content: String(row.context_preview ?? '') }
  const prefix = processedPrefix(scope.app.id)
  if (!logs || !path.startsWith(prefix) || !isSafeRelativePath(path.slice(prefix.length))) throw new OperationalError(SOURCE_UNAVAILABLE)
  const bytes = await logs.read(path, start, Math.min(SOURCE_MAX_BYTES, Math.max(0, end - start)))
  if (bytes === null) throw new OperationalError(SOURCE_UNAVAILABLE)
  return { byte_start: start, byte_end: end, path, log_type: String(row.log_type), channel, content: decoder.decode(bytes) }
}
