import { TRACKER_MESSAGES, TrackerPushSchema, TrackerSettingsInputSchema } from '../../../shared/schemas/tracker.ts'
import type { Deps } from '../../deps.ts'
import { readBodyBytes, readJson } from '../../http/read-body.ts'
import { readResourceId } from '../../http/resource-id.ts'
import { json } from '../../http/respond.ts'
import type { ApiRequest } from '../../http/router.ts'
import { scopeOf } from '../../http/with-app.ts'
import type { PluginRoute } from '../plugin.ts'
import { TRACKER_SECTION } from './tracker-config.ts'
import type { TrackerContext } from './tracker-context.ts'
import { getTrackerIssue, pushTrackerIssue } from './tracker-push.ts'
import { getTrackerSettings, updateTrackerSettings } from './tracker-settings.ts'
import { syncTracker } from './tracker-sync.ts'
import { testTracker } from './tracker-test.ts'
import { receiveTrackerWebhook } from './tracker-webhook.ts'

/** The tracker's context for a request: its application, SERVICE_SECRET's box, `tracker.*` and the env overrides. */
export function requestContext(request: ApiRequest, deps: Deps): TrackerContext {
  return {
    scope: scopeOf(request),
    secrets: deps.secrets,
    config: deps.config.section(TRACKER_SECTION),
    env: deps.config.trackerEnv,
    hasSecret: deps.config.hasSecret,
    baseUrl: deps.config.serviceUrl ?? new URL(request.url).origin,
    now: deps.now(),
  }
}

async function updateSettings(request: ApiRequest, deps: Deps) {
  return json(await updateTrackerSettings(requestContext(request, deps), await readJson(request, TrackerSettingsInputSchema, deps.config.maxBodyBytes)))
}

/** The tracker plugin's endpoints (seed §4.1 `tracker-*`, reference §4.5, plus `tracker-issue` for push); 404 while the plugin is off. */
export const TRACKER_ROUTES: readonly PluginRoute[] = [
  {
    endpoint: 'tracker-settings',
    handlers: {
      GET: async (request, deps) => json(await getTrackerSettings(requestContext(request, deps))),
      PUT: updateSettings,
      PATCH: updateSettings,
      POST: updateSettings,
    },
  },
  {
    endpoint: 'tracker-test',
    handlers: { POST: async (request, deps) => json(await testTracker(requestContext(request, deps))) },
  },
  {
    endpoint: 'tracker-sync',
    handlers: { POST: async (request, deps) => json(await syncTracker(requestContext(request, deps))) },
  },
  {
    endpoint: 'tracker-issue',
    handlers: {
      GET: async (request, deps) => json(await getTrackerIssue(requestContext(request, deps), readResourceId({}, request.query, TRACKER_MESSAGES.issueId))),
      POST: async (request, deps) => {
        const { id } = await readJson(request, TrackerPushSchema, deps.config.maxBodyBytes)
        return json(await pushTrackerIssue(requestContext(request, deps), id))
      },
    },
  },
  {
    // Exempt from the API guard (worker/http/guard.ts): the signature over the raw body is its authentication.
    endpoint: 'tracker-webhook',
    handlers: {
      POST: async (request, deps) => {
        const body = await readBodyBytes(request, deps.config.maxBodyBytes)
        return json(await receiveTrackerWebhook(requestContext(request, deps), body, (header) => request.headers.get(header)))
      },
    },
  },
]
