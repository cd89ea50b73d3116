import { definePlugin } from '../plugin.ts'

/** Listed in the catalog and not yet available (`planned`): switching it on is refused until it is built. */
export const httpIngestPlugin = definePlugin({
  id: 'http_ingest',
  name: 'HTTP ingest',
  description: 'Accept events from applications over HTTP and from unmodified Sentry SDKs.',
  category: 'Ingestion',
  status: 'planned',
  defaultEnabled: false,
})
