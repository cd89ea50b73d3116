import { define, type, type Infer } from 'superstruct'

/** The header an application sends its ingest key in (reference §4.3's `X-Log-Lens-Ingest-Key`, in Loupe's name). */
export const INGEST_KEY_HEADER = 'X-Loupe-Ingest-Key'

export const INGEST_MESSAGES = {
  unsupportedAction: 'Unsupported action.',
  keyRequired: `A valid ingest key is required (${INGEST_KEY_HEADER}).`,
} as const

/** `GET ?api=ingest-settings` (reference §4.3). */
export interface IngestSettingsView {
  /** Where applications post events: `ingest.url` when configured, else this service's `?api=ingest`. */
  readonly ingest_url: string
  /** The application's push key (`lpk_` + 48 hex), minted on the first read. */
  readonly key: string
  readonly key_header: typeof INGEST_KEY_HEADER
  readonly rate_limit: { readonly max_events: number; readonly window_seconds: number }
}

/** Body of `POST ?api=ingest-settings`: only `{"action": "regenerate"}`. */
export const IngestSettingsActionSchema = type({
  action: define<'regenerate'>('action', (value) => (value === 'regenerate' ? true : INGEST_MESSAGES.unsupportedAction)),
})
export type IngestSettingsAction = Infer<typeof IngestSettingsActionSchema>
