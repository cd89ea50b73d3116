import { IngestSettingsActionSchema } from '../../../shared/schemas/ingest.ts'
import type { Deps } from '../../deps.ts'
import { readJson } from '../../http/read-body.ts'
import { json } from '../../http/respond.ts'
import type { ApiRequest } from '../../http/router.ts'
import { scopeOf } from '../../http/with-app.ts'
import { toTimestamp } from '../../time.ts'
import type { PluginRoute } from '../plugin.ts'
import { INGEST_SECTION } from './ingest-config.ts'
import { getIngestSettings, regenerateIngestSettingsKey } from './ingest-settings.ts'

/** `?api=ingest-settings` (reference §4.3). */
export const INGEST_SETTINGS_ROUTE: PluginRoute = {
  endpoint: 'ingest-settings',
  handlers: {
    GET: async (request: ApiRequest, deps: Deps) =>
      json(
        await getIngestSettings({
          scope: scopeOf(request),
          secrets: deps.secrets,
          settings: deps.config.section(INGEST_SECTION),
          baseUrl: deps.config.serviceUrl ?? new URL(request.url).origin,
          now: toTimestamp(deps.now()),
        }),
      ),
    POST: async (request: ApiRequest, deps: Deps) => {
      await readJson(request, IngestSettingsActionSchema, deps.config.maxBodyBytes)
      return json(await regenerateIngestSettingsKey({ scope: scopeOf(request), secrets: deps.secrets, now: toTimestamp(deps.now()) }))
    },
  },
}
