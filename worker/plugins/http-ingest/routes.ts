import { IngestSettingsActionSchema } from '../../../shared/schemas/ingest.ts'
import type { Deps } from '../../deps.ts'
import { readJson, readJsonValue } from '../../http/read-body.ts'
import { json } from '../../http/respond.ts'
import type { ApiRequest } from '../../http/router.ts'
import { scopeOf } from '../../http/with-app.ts'
import { toTimestamp } from '../../time.ts'
import type { Plugin, PluginRoute } from '../plugin.ts'
import { acceptEvents } from './accept-events.ts'
import { INGEST_SECTION } from './ingest-config.ts'
import { readIngestPayload } from './ingest-payload.ts'
import { clientAddress, INGEST_CORS_HEADERS, presentedIngestKey } from './ingest-request.ts'
import { getIngestSettings, regenerateIngestSettingsKey } from './ingest-settings.ts'
import { scheduleDigest } from './schedule-digest.ts'

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

/**
 * `POST ?api=ingest` (reference §4.3): exempt from the token and origin checks (seed §5) — the ingest key is
 * its credential. Answers 202 `{accepted, received, dropped}` once the events are staged; the digest stores
 * them after the response.
 */
export function ingestRoute(plugin: () => Plugin): PluginRoute {
  return {
    endpoint: 'ingest',
    checksEnabled: true,
    handlers: {
      POST: async (request: ApiRequest, deps: Deps) => {
        const body = await readJsonValue(request, deps.config.maxBodyBytes)
        const settings = deps.config.section(INGEST_SECTION)
        const scope = scopeOf(request)
        const now = deps.now()
        const result = await acceptEvents({
          scope,
          plugin: plugin(),
          secrets: deps.secrets,
          settings,
          presentedKey: presentedIngestKey(request.headers, new URL(request.url)),
          clientIp: clientAddress(request.headers, settings.trust_forwarded_for),
          via: 'http',
          now,
          isolate: deps.registry,
          waitUntil: deps.waitUntil,
          readEvents: () => readIngestPayload(body, now),
        })
        scheduleDigest(deps, scope)
        return json(result, 202, INGEST_CORS_HEADERS)
      },
      OPTIONS: async () => new Response(null, { status: 204, headers: INGEST_CORS_HEADERS }),
    },
  }
}
