import { readJsonObject } from '../http/read-body.ts'
import { json } from '../http/respond.ts'
import { route, type ApiRequest, type ApiRouter } from '../http/router.ts'
import { scopeOf, withApp } from '../http/with-app.ts'
import { toTimestamp } from '../time.ts'
import type { Deps } from '../deps.ts'
import { getIngestionSettings, updateIngestionSettings } from './ingestion-settings.ts'

/** `?api=ingestion-settings` (reference §3.5). */
export function registerSettingsRoutes(router: ApiRouter): void {
  route(
    router,
    '/ingestion-settings',
    {
      GET: async (request) => json(await getIngestionSettings(scopeOf(request))),
      POST: update,
      PUT: update,
      PATCH: update,
    },
    [withApp],
  )
}

async function update(request: ApiRequest, deps: Deps) {
  const body = await readJsonObject(request, deps.config.maxBodyBytes)
  return json(await updateIngestionSettings(scopeOf(request), body, toTimestamp(deps.now())))
}
