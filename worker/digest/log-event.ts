import type { Severity } from '../../shared/constants.ts'

/**
 * One event read from a log file by a parser (reference-behaviour.md §2.2).
 *
 * The byte range is exact: `byteStart..byteEnd` is the event's raw text in the file (header line, continuation
 * lines and their line terminators), so the raw event can later be re-read with an HTTP Range request and
 * occurrences can be deduplicated on `(source_file_id, byte_start)` (§2.6).
 */
export interface LogEvent {
  /** `YYYY-MM-DD HH:MM:SS` in UTC: offset-bearing times converted, bare times verbatim (§2.2 timestamp rule). */
  readonly occurredAt: string
  readonly severity: Severity
  /** `production` etc. for Laravel; the source kind (`console`, `nginx`, `horizon`, `json`) when the log has none. */
  readonly environment: string | null
  /** Header message plus continuation lines joined by `\n`, capped at the capture limit (UTF-8 bytes). */
  readonly body: string
  /** Structured context (nginx, JSON lines); null for text formats, whose context the analyzer finds in the body. */
  readonly context: Record<string, unknown> | null
  /** Absolute byte offset in the file of the event's first byte. */
  readonly byteStart: number
  /** Absolute offset just past the event's last byte, including its line terminator. */
  readonly byteEnd: number
  /** `laravel` | `horizon` | `nginx_access` | `nginx_error` | `apache_error` | `console` | `json` (§2.7). */
  readonly logType: string
}
