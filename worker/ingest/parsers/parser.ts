import type { Severity } from '../../../shared/constants.ts'

/** What a header line (or a standalone line) says about the event it starts. */
export interface EventStart {
  readonly occurredAt: string
  readonly severity: Severity
  readonly environment: string | null
  /** The header's message; continuation lines are appended by the driver. */
  readonly body: string
  readonly context: Record<string, unknown> | null
}

/** Per-file values a parser needs for lines that carry no usable time. */
export interface LineContext {
  /** `YYYY-MM-DD HH:MM:SS` fallback for unparseable times (reference §2.2). */
  readonly now: string
  /** `YYYY-MM-DD HH:MM:SS` for lines that carry no time at all (console lines before any header). */
  readonly fileModifiedAt: string
}

/**
 * A log format, driven line by line by `parseLog` (worker/ingest/parse-log.ts). Parsers are stateless
 * singletons: the driver owns the current event, byte offsets and the capture limit, so every format gets
 * chunked resumption for free. Lines arrive without their terminator (`\n`, and trailing `\r`s stripped).
 */
export interface LogParser {
  /** Stable id, persisted by callers that resume a file later (`parserById`). */
  readonly id: string
  /** `log_type` of the events (reference §2.7). */
  readonly logType: string
  /** Whether an event can span lines; when false every event is complete at the end of its line. */
  readonly multiline: boolean
  /** Whether this parser claims a file, from its name and the first 64 KiB (reference §2.2 selection table). */
  supports(fileName: string, sample: string): boolean
  /** Starts a new event, or returns null when the line is not a header. */
  header(line: string, context: LineContext): EventStart | null
  /** Text a non-header line adds to the current event's body; null adds nothing (its bytes still belong to it). */
  continuation(line: string): string | null
  /** What a non-header line before any event becomes: a standalone event, or null to drop it. */
  orphan(line: string, context: LineContext): EventStart | null
}

/** The lower-cased last path segment of a file name or object key; the name rules look only at it. */
export function fileBaseName(fileName: string): string {
  const cut = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'))
  return fileName.slice(cut + 1).toLowerCase()
}

/** The first line of a sample, skipping leading blank lines like PHP's `strtok($sample, "\r\n")`. */
export function firstLineOf(sample: string): string {
  const match = /[^\r\n]+/.exec(sample)
  return match ? match[0] : ''
}

/** The first line of a sample that is not blank after trimming, trimmed; '' when there is none. */
export function firstNonBlankLineOf(sample: string): string {
  for (let pos = 0; pos < sample.length; ) {
    const newline = sample.indexOf('\n', pos)
    const end = newline === -1 ? sample.length : newline
    const trimmed = sample.slice(pos, end).trim()
    if (trimmed !== '') return trimmed
    pos = end + 1
  }
  return ''
}
