import { ALERT_MESSAGES, AlertChannelInputSchema, AlertRuleInputSchema, AlertTestSchema } from '../../../shared/schemas/alerts.ts'
import type { Deps } from '../../deps.ts'
import { queryString } from '../../http/query.ts'
import { readJson, readJsonObject, validated } from '../../http/read-body.ts'
import { readResourceId } from '../../http/resource-id.ts'
import { created, json } from '../../http/respond.ts'
import type { ApiRequest } from '../../http/router.ts'
import { scopeOf } from '../../http/with-app.ts'
import { toTimestamp } from '../../time.ts'
import type { PluginRoute } from '../plugin.ts'
import { createChannel, deleteChannel, listChannels, updateChannel, type ChannelWriter } from './alert-channels.ts'
import { alertEventsLimit, listAlertEvents, testChannel } from './alert-events.ts'
import { createRule, deleteRule, listRules, updateRule } from './alert-rules.ts'
import { ALERTS_SECTION } from './alerts-config.ts'
import { previewRule } from './alert-preview.ts'

function channelWriter(request: ApiRequest, deps: Deps): ChannelWriter {
  return { scope: scopeOf(request), secrets: deps.secrets, allowLocal: deps.config.section(ALERTS_SECTION).allow_local_targets, now: toTimestamp(deps.now()) }
}

async function updateChannelHandler(request: ApiRequest, deps: Deps) {
  const body = await readJsonObject(request, deps.config.maxBodyBytes)
  const id = readResourceId(body, request.query, ALERT_MESSAGES.channelId)
  return json(await updateChannel(channelWriter(request, deps), id, validated(body, AlertChannelInputSchema)))
}

async function updateRuleHandler(request: ApiRequest, deps: Deps) {
  const body = await readJsonObject(request, deps.config.maxBodyBytes)
  const id = readResourceId(body, request.query, ALERT_MESSAGES.ruleId)
  return json(await updateRule(scopeOf(request), id, validated(body, AlertRuleInputSchema), toTimestamp(deps.now())))
}

/** The alerting plugin's endpoints (seed §4.1, reference §4.2); each answers 404 while the plugin is off. */
export const ALERT_ROUTES: readonly PluginRoute[] = [
  {
    endpoint: 'alert-channels',
    handlers: {
      GET: async (request) => json({ data: await listChannels(scopeOf(request)) }),
      POST: async (request, deps) => created(await createChannel(channelWriter(request, deps), await readJson(request, AlertChannelInputSchema, deps.config.maxBodyBytes))),
      PUT: updateChannelHandler,
      PATCH: updateChannelHandler,
      DELETE: async (request, deps) => {
        const body = await readJsonObject(request, deps.config.maxBodyBytes)
        return json(await deleteChannel(scopeOf(request), readResourceId(body, request.query, ALERT_MESSAGES.channelId)))
      },
    },
  },
  {
    endpoint: 'alert-rules',
    handlers: {
      GET: async (request) => json({ data: await listRules(scopeOf(request)) }),
      POST: async (request, deps) =>
        created(await createRule(scopeOf(request), await readJson(request, AlertRuleInputSchema, deps.config.maxBodyBytes), toTimestamp(deps.now()))),
      PUT: updateRuleHandler,
      PATCH: updateRuleHandler,
      DELETE: async (request, deps) => {
        const body = await readJsonObject(request, deps.config.maxBodyBytes)
        return json(await deleteRule(scopeOf(request), readResourceId(body, request.query, ALERT_MESSAGES.ruleId)))
      },
    },
  },
  {
    endpoint: 'alert-test',
    handlers: {
      POST: async (request, deps) => {
        const { id } = await readJson(request, AlertTestSchema, deps.config.maxBodyBytes)
        return json(await testChannel(scopeOf(request), deps.secrets, deps.config.section(ALERTS_SECTION), id, deps.config.serviceUrl))
      },
    },
  },
  {
    endpoint: 'alert-preview',
    handlers: {
      POST: async (request, deps) => json(await previewRule(scopeOf(request), await readJson(request, AlertRuleInputSchema, deps.config.maxBodyBytes), deps.now())),
    },
  },
  {
    endpoint: 'alert-events',
    handlers: {
      GET: async (request) => json({ data: await listAlertEvents(scopeOf(request), alertEventsLimit(queryString(request.query, 'limit') ?? null)) }),
    },
  },
]
