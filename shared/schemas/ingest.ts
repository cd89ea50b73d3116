import { define, type, type Infer } from 'superstruct'

/** The header an application sends its ingest key in (reference §4.3's `X-Log-Lens-Ingest-Key`, in Loupe's name). */
export const INGEST_KEY_HEADER = 'X-Loupe-Ingest-Key'

export const INGEST_MESSAGES = {
  unsupportedAction: 'Unsupported action.',
  keyRequired: `A valid ingest key is required (${INGEST_KEY_HEADER}).`,
  noEvents: 'No events supplied. Send {"events":[…]} or a single event object.',
  tooManyEvents: 'A batch may contain at most 500 events.',
  messageRequired: 'Each event requires a non-empty "message".',
  rateLimited: 'Ingest rate limit reached for this application. Retry after the window rolls over.',
} as const

/** Events one `POST ?api=ingest` may carry (reference §4.3). */
export const MAX_INGEST_BATCH = 500

/** `202` answer of `POST ?api=ingest` (reference §4.3). */
export interface IngestResult {
  /** Events stored (or already stored: a Sentry event id seen before counts as accepted once more). */
  readonly accepted: number
  readonly received: number
  /** Events over the rate limit, the batch's last ones. */
  readonly dropped: number
}

/** `GET ?api=ingest-settings` (reference §4.3). */
export interface IngestSettingsView {
  /** Where applications post events: `ingest.url` when configured, else this service's `?api=ingest`. */
  readonly ingest_url: string
  /** The application's push key (`lpk_` + 48 hex), minted on the first read. */
  readonly key: string
  readonly key_header: typeof INGEST_KEY_HEADER
  /** The Sentry DSN for this application: `<scheme>://<key>@<host>/<numeric project>`. */
  readonly dsn: string
  readonly rate_limit: { readonly max_events: number; readonly window_seconds: number }
}

/** Body of `POST ?api=ingest-settings`: only `{"action": "regenerate"}`. */
export const IngestSettingsActionSchema = type({
  action: define<'regenerate'>('action', (value) => (value === 'regenerate' ? true : INGEST_MESSAGES.unsupportedAction)),
})
export type IngestSettingsAction = Infer<typeof IngestSettingsActionSchema>
