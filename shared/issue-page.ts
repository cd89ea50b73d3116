/**
 * Response shapes of the issue page's own endpoints (issue 17 items 5–7): `event-context` and
 * `issue-values`. Kept beside `shared/api.ts` so the worker and the dashboard share one contract.
 */

/** One line of an archived log file, without its line break (`\n` or `\r\n`). */
export interface ContextLine {
  /** Byte offset of the line's first byte in the file. */
  readonly byte_start: number
  readonly text: string
}

/** `GET ?api=event-context&id=<occurrence>&lines=N`. */
export interface EventContext {
  readonly occurrence_id: number
  readonly path: string
  readonly byte_start: number
  readonly byte_end: number
  /** false for events that came through HTTP or Sentry ingest: they have no log file around them. */
  readonly available: boolean
  /** Why there is no context (`available: false`), otherwise null. */
  readonly reason: string | null
  /** Up to `lines` lines before the event, oldest first. */
  readonly before: readonly ContextLine[]
  /** The event's own lines. */
  readonly lines: readonly ContextLine[]
  /** Up to `lines` lines after the event. */
  readonly after: readonly ContextLine[]
  /** The event starts on the file's first line / its last line ends the file: nothing more to show there. */
  readonly start_of_file: boolean
  readonly end_of_file: boolean
}

export interface ValueCount {
  readonly value: string
  readonly count: number
}

/** One key of the breakdown: its values, most frequent first (`(other)` last), and their total. */
export interface ValueBreakdown {
  readonly name: string
  readonly total: number
  readonly values: readonly ValueCount[]
}

/** `GET ?api=issue-values&id=<issue>`. */
export interface IssueValues {
  readonly data: readonly ValueBreakdown[]
  readonly meta: { readonly id: number; readonly top: number; readonly cap: number }
}
