import { DeployInputSchema, RELEASE_LIMITS, RELEASE_MESSAGES, ReleaseSettingsInputSchema } from '../../../shared/schemas/releases.ts'
import type { Deps } from '../../deps.ts'
import { requireLogs } from '../../intake/log-storage.ts'
import { queryInteger, queryString } from '../../http/query.ts'
import { readJson, readJsonObject } from '../../http/read-body.ts'
import { readResourceId } from '../../http/resource-id.ts'
import { created, json } from '../../http/respond.ts'
import type { ApiRequest } from '../../http/router.ts'
import { scopeOf } from '../../http/with-app.ts'
import { toTimestamp } from '../../time.ts'
import type { PluginRoute } from '../plugin.ts'
import { createDeploy, deleteDeploy, listDeploys } from './deploys.ts'
import { issueReleases } from './issue-releases.ts'
import { listReleases } from './release-list.ts'
import { getReleaseSettings, saveReleaseSettings } from './release-settings.ts'
import { deleteSourceMap, listSourceMaps, storeSourceMap, toSourceMapUpload } from './source-maps.ts'

/** A 16 MiB map, escaped inside a JSON string, with room for the other fields. */
const SOURCE_MAP_BODY_BYTES = 2 * RELEASE_LIMITS.mapBytes + 64 * 1024

async function saveSettingsHandler(request: ApiRequest, deps: Deps) {
  return json(await saveReleaseSettings(scopeOf(request), await readJson(request, ReleaseSettingsInputSchema, deps.config.maxBodyBytes), toTimestamp(deps.now())))
}

/** The release-tracking plugin's endpoints (seed §4.1, reference §4.4); each answers 404 while the plugin is off. */
export const RELEASE_ROUTES: readonly PluginRoute[] = [
  {
    endpoint: 'deploys',
    handlers: {
      GET: async (request, deps) => {
        const limit = queryInteger(request.query, 'limit', { min: 1, max: RELEASE_LIMITS.deploysMax, fallback: RELEASE_LIMITS.deploysDefault })
        const days = queryInteger(request.query, 'days', { min: 1, max: RELEASE_LIMITS.daysMax, fallback: RELEASE_LIMITS.daysDefault })
        return json(await listDeploys(scopeOf(request), limit, days, deps.now()))
      },
      POST: async (request, deps) => created(await createDeploy(scopeOf(request), await readJson(request, DeployInputSchema, deps.config.maxBodyBytes), deps.now())),
      DELETE: async (request, deps) => {
        const body = await readJsonObject(request, deps.config.maxBodyBytes)
        return json(await deleteDeploy(scopeOf(request), readResourceId(body, request.query, RELEASE_MESSAGES.deployId)))
      },
    },
  },
  {
    endpoint: 'releases',
    handlers: {
      GET: async (request) => json({ data: await listReleases(scopeOf(request), queryInteger(request.query, 'limit', { min: 1, max: RELEASE_LIMITS.deploysMax, fallback: RELEASE_LIMITS.deploysDefault })) }),
    },
  },
  {
    endpoint: 'release-settings',
    handlers: {
      GET: async (request) => json(await getReleaseSettings(scopeOf(request))),
      POST: saveSettingsHandler,
      PUT: saveSettingsHandler,
      PATCH: saveSettingsHandler,
    },
  },
  {
    endpoint: 'issue-releases',
    handlers: {
      GET: async (request) => json(await issueReleases(scopeOf(request), readResourceId({}, request.query, RELEASE_MESSAGES.issueId))),
    },
  },
  {
    endpoint: 'source-maps',
    handlers: {
      GET: async (request) => json({ data: await listSourceMaps(scopeOf(request), queryString(request.query, 'release') ?? null) }),
      POST: async (request, deps) => {
        const logs = requireLogs(deps)
        const upload = toSourceMapUpload(await readJsonObject(request, SOURCE_MAP_BODY_BYTES))
        return created(await storeSourceMap(scopeOf(request), logs, upload, toTimestamp(deps.now())))
      },
      DELETE: async (request, deps) => {
        const body = await readJsonObject(request, deps.config.maxBodyBytes)
        return json(await deleteSourceMap(scopeOf(request), requireLogs(deps), readResourceId(body, request.query, RELEASE_MESSAGES.mapId)))
      },
    },
  },
]
