import type { IngestSettingsView } from '../../../shared/schemas/ingest.ts'
import { INGEST_KEY_HEADER } from '../../../shared/schemas/ingest.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import type { SecretBox } from '../../security/secret-box.ts'
import { INGEST_SECTION } from './ingest-config.ts'
import { readOrMintIngestKey, regenerateIngestKey } from './ingest-key.ts'

export interface IngestSettingsContext {
  readonly scope: AppScope
  readonly secrets: SecretBox
  readonly settings: ReturnType<typeof INGEST_SECTION.read>
  /** `SERVICE_URL`, or the base of the request that asked. */
  readonly baseUrl: string
  readonly now: string
}

/**
 * `GET ?api=ingest-settings` (reference §4.3): where to send events, the key (minted on the first read) and
 * its header, and the rate limit. `ingest_url` is `ingest.url` with the application appended, or this
 * service's `?api=ingest&app=<id>`; `dsn` is the Sentry DSN.
 */
export async function getIngestSettings(context: IngestSettingsContext): Promise<IngestSettingsView> {
  const { scope, settings } = context
  const key = await readOrMintIngestKey(scope, context.secrets, context.now)
  return {
    ingest_url: ingestUrl(settings.url, context.baseUrl, scope.app.id),
    key,
    key_header: INGEST_KEY_HEADER,
    dsn: sentryDsn(context.baseUrl, key, scope.app.namespace),
    rate_limit: { max_events: settings.rate_max_events, window_seconds: settings.rate_window_seconds },
  }
}

/** `POST ?api=ingest-settings {"action": "regenerate"}`: a new key, returned once. */
export async function regenerateIngestSettingsKey(context: Pick<IngestSettingsContext, 'scope' | 'secrets' | 'now'>): Promise<{ key: string }> {
  return { key: await regenerateIngestKey(context.scope, context.secrets, context.now) }
}

/**
 * The Sentry DSN of the application: the ingest key as the public key, this service's origin as the host
 * (SDKs post to `<origin>/api/<project>/envelope/`), and the application's namespace as the project — a
 * stable number, as SDKs accept only numeric projects.
 */
export function sentryDsn(baseUrl: string, key: string, namespace: number): string {
  const origin = new URL(baseUrl)
  return `${origin.protocol}//${key}@${origin.host}/${namespace}`
}

function ingestUrl(configured: string | null, baseUrl: string, appId: string): string {
  const app = `app=${encodeURIComponent(appId)}`
  if (configured) return `${configured}${configured.includes('?') ? '&' : '?'}${app}`
  return `${baseUrl.replace(/\/+$/, '')}/?api=ingest&${app}`
}
