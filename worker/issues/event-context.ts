import type { ContextLine, EventContext } from '../../shared/issue-page.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { readRow } from '../../drivers/read-row.ts'
import { NotFoundError, OperationalError } from '../errors.ts'
import { isSafeRelativePath } from '../intake/log-file-name.ts'
import { processedPrefix } from '../intake/log-storage.ts'
import type { LogStore } from '../intake/log-store.ts'
import { OCCURRENCE_NOT_FOUND, SOURCE_UNAVAILABLE } from '../sources/source-content.ts'

/** `lines` defaults to 5 and is at most 50 on each side. */
export const CONTEXT_LINES_DEFAULT = 5
export const CONTEXT_LINES_MAX = 50
/** Bytes read on each side per line asked for, between these bounds: log lines are rarely longer than 2 KiB. */
const BYTES_PER_LINE = 2048
const SIDE_BYTES_MIN = 8 * 1024
const SIDE_BYTES_MAX = 96 * 1024
/** The event's own bytes shown at most (a 4 MiB event is `source`'s business, not the context's). */
const EVENT_BYTES_MAX = 64 * 1024
/** The synthetic source files of HTTP and Sentry ingest (`http-ingest/{module}/{channel}`, reference §4.3). */
const INGEST_SOURCE_PREFIX = 'http-ingest/'
export const NO_FILE_REASON = 'This event was received over HTTP or Sentry ingest: there is no log file around it.'

const decoder = new TextDecoder()
const LF = 0x0a
const CR = 0x0d

/**
 * `GET ?api=event-context&id=<occurrence>&lines=N`: the lines of the archived log file around one occurrence
 * (issue 17 item 7) — one database round trip for the occurrence's file and byte range, then ONE ranged read
 * of the log store covering the lines before, the event and the lines after. Lines end at `\n`; a `\r` before
 * it is dropped (CRLF files). A line cut by the window's edge is left out rather than shown half.
 */
export async function readEventContext(scope: AppScope, logs: LogStore | null, occurrenceId: number, lines: number): Promise<EventContext> {
  const { rows } = await scope.db.execute({
    sql: `SELECT o.byte_start, o.byte_end, s.path FROM ${scope.t.occurrences} o JOIN ${scope.t.sourceFiles} s ON s.id = o.source_file_id WHERE o.id = ?`,
    args: [occurrenceId],
  })
  if (!rows[0]) throw new NotFoundError(OCCURRENCE_NOT_FOUND)
  const row = readRow(rows[0], { byte_start: 'number', byte_end: 'number', path: 'string' }, 'occurrence')
  const base = { occurrence_id: occurrenceId, path: row.path, byte_start: row.byte_start, byte_end: row.byte_end }
  if (row.path.startsWith(INGEST_SOURCE_PREFIX)) {
    return { ...base, available: false, reason: NO_FILE_REASON, before: [], lines: [], after: [], start_of_file: false, end_of_file: false }
  }
  const prefix = processedPrefix(scope.app.id)
  if (!logs || !row.path.startsWith(prefix) || !isSafeRelativePath(row.path.slice(prefix.length))) throw new OperationalError(SOURCE_UNAVAILABLE)
  const side = Math.min(SIDE_BYTES_MAX, Math.max(SIDE_BYTES_MIN, lines * BYTES_PER_LINE))
  const start = row.byte_start
  const eventEnd = Math.min(row.byte_end, start + EVENT_BYTES_MAX)
  // One byte more than the side: when it is a line break, the line after it is known to be whole.
  const windowStart = Math.max(0, start - side - 1)
  const length = eventEnd + side - windowStart
  const bytes = await logs.read(row.path, windowStart, length)
  if (bytes === null) throw new OperationalError(SOURCE_UNAVAILABLE)
  return { ...base, available: true, reason: null, ...splitWindow(bytes, windowStart, start, eventEnd, bytes.length < length, lines) }
}

/**
 * Cuts a window of the file (`bytes`, starting at file offset `windowStart`) into the lines before the event
 * at [start, end), the event's lines, and the lines after. `atEnd`: the window reaches the end of the file.
 */
export function splitWindow(bytes: Uint8Array, windowStart: number, start: number, end: number, atEnd: boolean, count: number): Pick<EventContext, 'before' | 'lines' | 'after' | 'start_of_file' | 'end_of_file'> {
  const local = (offset: number) => Math.min(bytes.length, Math.max(0, offset - windowStart))
  const eventStart = local(start)
  const eventEnd = local(end)
  // The event's lines: its range, its last line break included or not.
  const own = splitLines(bytes, eventStart, eventEnd, windowStart)
  // Past the event: skip the break ending its last line when the range stops before it.
  let afterStart = eventEnd
  if (afterStart > eventStart && bytes[afterStart - 1] !== LF) {
    const next = bytes.indexOf(LF, afterStart)
    afterStart = next === -1 ? bytes.length : next + 1
  }
  // Before: whole lines only — the first piece is cut unless the window starts the file or follows a break.
  const beforePieces = splitLines(bytes, 0, eventStart, windowStart)
  if (windowStart > 0 && beforePieces.length > 0) beforePieces.shift()
  const before = beforePieces.slice(Math.max(0, beforePieces.length - count))
  // After: the last piece is cut unless the window reached the end of the file or it ends with a break.
  const afterPieces = splitLines(bytes, afterStart, bytes.length, windowStart)
  const lastComplete = atEnd || bytes[bytes.length - 1] === LF
  if (!lastComplete && afterPieces.length > 0) afterPieces.pop()
  const after = afterPieces.slice(0, count)
  return {
    before,
    lines: own,
    after,
    start_of_file: start === 0 || (before[0]?.byte_start === 0),
    end_of_file: atEnd && after.length === afterPieces.length,
  }
}

/** The lines of bytes [from, to): pieces between `\n`s, a trailing `\r` dropped, no empty piece after a final break. */
function splitLines(bytes: Uint8Array, from: number, to: number, windowStart: number): ContextLine[] {
  const lines: ContextLine[] = []
  let lineStart = from
  while (lineStart < to) {
    const found = bytes.indexOf(LF, lineStart)
    const stop = found === -1 || found >= to ? to : found
    let textEnd = stop
    if (textEnd > lineStart && bytes[textEnd - 1] === CR) textEnd--
    lines.push({ byte_start: windowStart + lineStart, text: decoder.decode(bytes.subarray(lineStart, textEnd)) })
    lineStart = stop + 1
  }
  return lines
}
