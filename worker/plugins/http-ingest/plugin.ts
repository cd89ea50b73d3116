import { definePlugin } from '../plugin.ts'
import { INGEST_SECTION } from './ingest-config.ts'
import { INGEST_SETTINGS_ROUTE } from './routes.ts'

/**
 * HTTP and Sentry-SDK ingest (reference §4.3, issue 12). Built so far: `ingest-settings` (the sealed,
 * lazily minted key, the ingest URL and the rate limit) and the `ingest.*` configuration. It stays `planned`
 * until the `ingest` endpoint itself exists, so nobody is handed a key that nothing accepts.
 */
export const httpIngestPlugin = definePlugin({
  id: 'http_ingest',
  name: 'HTTP ingest',
  description: 'Accept events from applications over HTTP and from unmodified Sentry SDKs.',
  category: 'Ingestion',
  status: 'planned',
  defaultEnabled: false,
  config: INGEST_SECTION,
  routes: [INGEST_SETTINGS_ROUTE],
})
