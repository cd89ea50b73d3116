import type { LogEvent } from './log-event.ts'
import type { EventStart, LineContext, LogParser } from './parsers/parser.ts'
import { SAMPLE_BYTES, selectParser } from './select-parser.ts'
import { truncateUtf8, utf8Length } from './utf8.ts'

/** The reference's `ingestion.capture_limit` (§2.2): continuation lines stop being captured at 4 MiB. */
export const DEFAULT_CAPTURE_LIMIT = 4 * 1024 * 1024

/** How to read one chunk of a file; `fileName`, `now` and `fileModifiedAt` stay the same for the whole file. */
export interface ParseOptions {
  /** Used for parser selection rules (horizon/access/nginx in the name). */
  readonly fileName: string
  /** When resuming, the caller passes the parser chosen at offset 0 (never re-sampled). Without it the parser is
   *  chosen from the chunk's first 64 Ki characters, so the first call should cover 64 KiB or the whole file. */
  readonly parser?: LogParser
  /** Absolute file offset of chunk[0]. */
  readonly baseOffset: number
  /** False: the chunk may end mid-event. */
  readonly isEndOfFile: boolean
  /** `YYYY-MM-DD HH:MM:SS` for lines before any header (console) and JSON lines without a time. */
  readonly fileModifiedAt: string
  /** `YYYY-MM-DD HH:MM:SS` fallback for unparseable times. */
  readonly now: string
  /** Max body bytes per event (UTF-8), default 4 MiB; lines beyond it are dropped but still consumed. */
  readonly captureLimit?: number
  /**
   * Set when the chunk is as large as the caller will read. If no complete event fits (one event, or one
   * line, longer than the chunk), the leading event is emitted cut at the chunk's last line end instead of
   * making no progress, and `ParseResult.insideEvent` asks the next call to skip the rest of it.
   */
  readonly forceProgress?: boolean
  /** Pass the previous result's `insideEvent`: leading non-header lines belong to an event already emitted. */
  readonly insideEvent?: boolean
}

/** The complete events of a chunk and where the next chunk must start. */
export interface ParseResult {
  readonly events: LogEvent[]
  /** Absolute offset up to which the input was consumed into complete events. When !isEndOfFile this is the
   *  start of the last, possibly incomplete event (or of the unterminated last line), so the next call resumes
   *  there without splitting or duplicating an event. When isEndOfFile it is baseOffset + chunk.length.
   *  `consumedTo === baseOffset` means no complete event fits: read a larger chunk or set `forceProgress`. */
  readonly consumedTo: number
  readonly parser: LogParser
  /** True when the next chunk starts inside an event already emitted (see `ParseOptions.forceProgress`). */
  readonly insideEvent: boolean
  /**
   * Non-blank lines consumed that belong to no event: lines before a format's first header, lines an
   * access log cannot read. Known noise (`LogParser.isNoise`) and blank lines are not counted.
   */
  readonly unparseable: number
}

interface Pending {
  readonly start: EventStart
  readonly byteStart: number
  byteEnd: number
  body: string
  /** UTF-16 length of `body`; while `units * 3` fits the limit no byte counting is needed. */
  units: number
  /** Exact UTF-8 length of `body` once it is near the limit, else -1. */
  bytes: number
  full: boolean
}

// One decoder for every call: `ignoreBOM` keeps a mark in the text so only a mark at offset 0 is dropped.
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true })

/**
 * Splits a chunk of a log file into events (reference §2.2). The chunk is decoded once; line boundaries are
 * found in the string and in the bytes side by side (the k-th `\n` of the text is the k-th 0x0A byte even
 * around invalid UTF-8), which makes every byte offset exact without measuring characters.
 * @example
 * let r = parseLog(bytes, { fileName: 'laravel.log', baseOffset: 0, isEndOfFile: false, fileModifiedAt, now })
 * r = parseLog(rest, { fileName: 'laravel.log', parser: r.parser, baseOffset: r.consumedTo, isEndOfFile: true, fileModifiedAt, now })
 */
export function parseLog(chunk: Uint8Array, options: ParseOptions): ParseResult {
  const text = decoder.decode(chunk)
  const base = options.baseOffset
  const limit = options.captureLimit ?? DEFAULT_CAPTURE_LIMIT
  const hasBom = base === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf
  let pos = hasBom ? 1 : 0
  let bytePos = hasBom ? 3 : 0
  const firstByte = base + bytePos
  const parser = options.parser ?? selectParser(options.fileName, text.slice(pos, pos + SAMPLE_BYTES))
  const context: LineContext = { now: options.now, fileModifiedAt: options.fileModifiedAt }
  const events: LogEvent[] = []
  let pending: Pending | null = null
  let skipping = options.insideEvent === true
  let unparseable = 0

  const emit = (start: EventStart, byteStart: number, byteEnd: number, text: string): void => {
    const { occurredAt, severity, environment } = start
    const { body, context: structured } = parser.finish ? parser.finish(start, text) : { body: text, context: start.context }
    events.push({ occurredAt, severity, environment, body, context: structured, byteStart, byteEnd, logType: parser.logType })
  }
  const flush = (): void => {
    if (pending !== null) emit(pending.start, pending.byteStart, pending.byteEnd, pending.body)
    pending = null
  }
  const readLine = (line: string, lineStart: number, lineEnd: number): void => {
    const start = parser.header(line, context)
    if (start !== null) {
      skipping = false
      flush()
      const body = capHeader(start.body, limit)
      if (parser.multiline) pending = { start, byteStart: lineStart, byteEnd: lineEnd, body, units: body.length, bytes: -1, full: body !== start.body }
      else emit(start, lineStart, lineEnd, body)
    } else if (pending !== null) {
      pending.byteEnd = lineEnd
      const add = parser.continuation(line)
      if (add !== null && !pending.full) append(pending, add, limit)
    } else if (!skipping) {
      const orphan = parser.orphan(line, context)
      if (orphan !== null) emit(orphan, lineStart, lineEnd, capHeader(orphan.body, limit))
      else if (!isBlank(line) && parser.isNoise?.(line) !== true) unparseable++
    }
  }

  const end = text.length
  while (pos < end) {
    const newline = text.indexOf('\n', pos)
    if (newline === -1 && !options.isEndOfFile) break
    const lineEnd = newline === -1 ? end : newline
    const nextBytePos = newline === -1 ? chunk.length : chunk.indexOf(0x0a, bytePos) + 1
    readLine(text.slice(pos, withoutCr(text, pos, lineEnd)), base + bytePos, base + nextBytePos)
    pos = lineEnd + 1
    bytePos = nextBytePos
  }

  if (options.isEndOfFile) {
    flush()
    return { events, consumedTo: base + chunk.length, parser, insideEvent: false, unparseable }
  }
  const held = pending as Pending | null
  let consumedTo = held !== null ? held.byteStart : base + bytePos
  if (options.forceProgress === true && consumedTo <= firstByte && (held !== null || pos < end)) {
    if (held === null && pos < end) readLine(text.slice(pos, withoutCr(text, pos, end)), base + bytePos, base + chunk.length)
    const cut = pending as Pending | null
    consumedTo = cut !== null ? cut.byteEnd : base + chunk.length
    flush()
    return { events, consumedTo, parser, insideEvent: true, unparseable }
  }
  return { events, consumedTo, parser, insideEvent: skipping, unparseable }
}

const NON_BLANK = /\S/

function isBlank(line: string): boolean {
  return !NON_BLANK.test(line)
}

/** End of the line's content: trailing `\r`s are stripped from the text (their bytes still count). */
function withoutCr(text: string, from: number, to: number): number {
  while (to > from && text.charCodeAt(to - 1) === 0x0d) to--
  return to
}

/** A header's own message is capped too, so one enormous line cannot exceed the limit. */
function capHeader(body: string, limit: number): string {
  if (body.length * 3 <= limit || utf8Length(body) <= limit) return body
  return truncateUtf8(body, limit)
}

/** Appends `\n` + line while the body stays within `limit` bytes; the line that crosses it is cut. */
function append(event: Pending, line: string, limit: number): void {
  if (event.bytes < 0 && (event.units + 1 + line.length) * 3 <= limit) {
    event.body += `\n${line}`
    event.units += 1 + line.length
    return
  }
  if (event.bytes < 0) event.bytes = utf8Length(event.body)
  const room = limit - event.bytes - 1
  const lineBytes = room < 0 ? 0 : utf8Length(line)
  if (room >= 0 && lineBytes <= room) {
    event.body += `\n${line}`
    event.bytes += 1 + lineBytes
    return
  }
  if (room > 0) event.body += `\n${truncateUtf8(line, room)}`
  event.full = true
}
