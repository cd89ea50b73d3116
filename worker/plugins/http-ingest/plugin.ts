import { definePlugin } from '../plugin.ts'
import { INGEST_SECTION } from './ingest-config.ts'
import { ingestRoute, INGEST_SETTINGS_ROUTE } from './routes.ts'
import { digestIngested } from './digest-ingested.ts'
import { sentryPaths } from './sentry/routes.ts'

/**
 * HTTP and Sentry-SDK ingest (reference §4.3, issue 12): `ingest` accepts events with the application's key
 * (rate-limited, staged in one round trip, 202), `ingest-settings` hands out the key, the ingest URL and
 * the rate limit; the digest stores staged events as issues after the response, and the cron trigger's
 * `maintain` hook digests whatever is still pending. docs/ingest.md describes it all.
 */
export const httpIngestPlugin = definePlugin({
  id: 'http_ingest',
  name: 'HTTP ingest',
  description: 'Accept events from applications over HTTP and from unmodified Sentry SDKs.',
  category: 'Ingestion',
  status: 'active',
  defaultEnabled: false,
  config: INGEST_SECTION,
  routes: [ingestRoute(() => httpIngestPlugin), INGEST_SETTINGS_ROUTE],
  paths: sentryPaths(() => httpIngestPlugin),
  hooks: {
    maintain: async ({ scope, plugins, services }) => {
      await digestIngested({ scope, plugins, services, now: () => new Date(), budgetMs: 20_000 })
    },
  },
})
