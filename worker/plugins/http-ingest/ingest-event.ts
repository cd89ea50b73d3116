import type { Severity } from '../../../shared/constants.ts'

/**
 * One event as HTTP ingest and Sentry ingest hand it to the digest, validated and defaulted (reference §4.3
 * "Event fields"). Both intakes produce this shape; the digest turns it into an issue occurrence.
 */
export interface IngestEvent {
  /** Non-empty; the event's text (Sentry: the exception value or the message). */
  readonly message: string
  readonly severity: Severity
  /** Default `production`. */
  readonly environment: string
  /** Sanitised channel name (default `app`; Sentry events: `sentry`, or the event's `logger`). */
  readonly channel: string
  readonly exceptionClass: string | null
  /** Frames, innermost first, one per line in Node's `    at fn (file:line:col)` form or as the client sent them. */
  readonly stack: string | null
  /**
   * The culprit frame when the client knows it (Sentry's top in-app frame), as `file:line` or `file:line:col`;
   * null lets the analyser pick it from the stack as for log files.
   */
  readonly culprit: string | null
  /** `YYYY-MM-DD HH:MM:SS` in UTC. */
  readonly occurredAt: string
  /** At most 120 characters. */
  readonly release: string | null
  /**
   * Everything else the event carried, stored as the occurrence's context and shown by the inspector:
   * `request`, `user`, `breadcrumbs` (last 50), `server_name`, `runtime`, `release`, Sentry's `tags`,
   * `contexts`, `platform`, `logger`, `sdk` and `event_id`.
   */
  readonly context: Record<string, unknown> | null
  /** Custom grouping key (at most 200 characters): events with the same one form one issue. */
  readonly fingerprint: string | null
  /** Tag names (at most 20, each at most 80, de-duplicated case-insensitively), attached with source `ingest`. */
  readonly tags: readonly string[]
  /** Module name, found or created. */
  readonly module: string | null
  /** Sentry's `event_id` (32 hex digits): the same id twice is stored once. */
  readonly eventId: string | null
}
