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

/** A complete event's body and structured context, as `LogParser.finish` may rewrite them. */
export interface FinishedEvent {
  readonly body: string
  readonly context: Record<string, unknown> | null
}

/**
 * A log format, driven line by line by `parseLog` (worker/digest/parse-log.ts). Parsers are stateless
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
  /**
   * How strongly a file looks like this format (worker/digest/select-parser.ts): the number of sampled lines
   * that are this format's own entry lines, plus a fraction when the file's name hints at it; 0 when the
   * format cannot be the file's. `lines` are the sample's non-blank lines; `name` its lower-cased base name.
   */
  detect(name: string, lines: readonly string[]): number
  /** Starts a new event, or returns null when the line is not a header. */
  header(line: string, context: LineContext): EventStart | null
  /** Text a non-header line adds to the current event's body; null adds nothing (its bytes still belong to it). */
  continuation(line: string): string | null
  /** What a non-header line before any event becomes: a standalone event, or null to drop it. */
  orphan(line: string, context: LineContext): EventStart | null
  /**
   * Lines a format writes between its entries that are not entries (Horizon's "Horizon started successfully."):
   * dropped before any event without counting as unparseable. Optional: every dropped line counts otherwise.
   */
  isNoise?(line: string): boolean
  /** Rewrites a complete event (its last line may carry fields, as nginx's `, client: …` does). Optional. */
  finish?(start: EventStart, body: string): FinishedEvent
}

/** What a file's name adds to a detection score when it hints at the format (less than one matching line). */
export const NAME_HINT = 0.5

/** Counts the lines a predicate accepts. */
export function countLines(lines: readonly string[], accepts: (line: string) => boolean): number {
  let hits = 0
  for (const line of lines) if (accepts(line)) hits++
  return hits
}

/** A detection score: the hits, plus {@link NAME_HINT} when there are hits and the name hints at the format. */
export function score(hits: number, hinted: boolean): number {
  return hits === 0 ? 0 : hits + (hinted ? NAME_HINT : 0)
}

/** The lower-cased last path segment of a file name or object key; the name rules look only at it. */
export function fileBaseName(fileName: string): string {
  const cut = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'))
  return fileName.slice(cut + 1).toLowerCase()
}
