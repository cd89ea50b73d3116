import { CONNECTOR_MESSAGES } from '../../shared/schemas/connectors.ts'
import type { Deps } from '../deps.ts'
import { queryString } from '../http/query.ts'
import { readJsonObject } from '../http/read-body.ts'
import { readResourceId } from '../http/resource-id.ts'
import { created, json } from '../http/respond.ts'
import { route, type ApiRequest, type ApiRouter } from '../http/router.ts'
import { scopeOf, withApp } from '../http/with-app.ts'
import { toTimestamp } from '../time.ts'
import { previewConnectors, readSyncRequest, requestSync, testConnector } from './connector-actions.ts'
import { parseConnectorInput } from './connector-input.ts'
import { listRuns } from './connector-runs.ts'
import { createConnector, deleteConnector, listConnectors, readConnector, updateConnector, type ConnectorWriter } from './connectors.ts'
import { CONNECTORS_SECTION } from './connectors-config.ts'

/** `?api=connectors`, `connectors-test`, `connectors-preview`, `connectors-sync`, `connectors-runs` (seed §4, reference §6). */
export function registerConnectorRoutes(router: ApiRouter): void {
  route(
    router,
    '/connectors',
    {
      GET: async (request) => {
        const id = queryString(request.query, 'id')
        if (id !== undefined) return json(await readConnector(scopeOf(request), readResourceId({}, request.query, CONNECTOR_MESSAGES.id)))
        return json({ data: await listConnectors(scopeOf(request)) })
      },
      POST: async (request, deps) => {
        const body = await readJsonObject(request, deps.config.maxBodyBytes)
        return created(await createConnector(writer(request, deps), parseConnectorInput(body, { allowLocalTargets: allowLocal(deps) })))
      },
      PUT: update,
      PATCH: update,
      DELETE: async (request, deps) => {
        const body = await readJsonObject(request, deps.config.maxBodyBytes)
        return json(await deleteConnector(scopeOf(request), readResourceId(body, request.query, CONNECTOR_MESSAGES.id)))
      },
    },
    [withApp],
  )
  route(
    router,
    '/connectors-test',
    {
      POST: async (request, deps) => {
        const body = await readJsonObject(request, deps.config.maxBodyBytes)
        return json(await testConnector(deps, scopeOf(request), readResourceId(body, request.query, CONNECTOR_MESSAGES.id)))
      },
    },
    [withApp],
  )
  route(
    router,
    '/connectors-preview',
    {
      POST: async (request, deps) => {
        const body = await readJsonObject(request, deps.config.maxBodyBytes)
        return json(await previewConnectors(deps, scopeOf(request), optionalId(body, request)))
      },
    },
    [withApp],
  )
  route(
    router,
    '/connectors-sync',
    {
      POST: async (request, deps) => {
        const body = await readJsonObject(request, deps.config.maxBodyBytes)
        return json(await requestSync(deps, scopeOf(request), readSyncRequest(body, optionalId(body, request))), 202)
      },
    },
    [withApp],
  )
  route(
    router,
    '/connectors-runs',
    {
      GET: async (request, deps) => {
        const connectorId = queryString(request.query, 'connector_id') === undefined ? undefined : readResourceId({ id: queryString(request.query, 'connector_id') }, {}, CONNECTOR_MESSAGES.id)
        return json({ data: await listRuns(scopeOf(request), runsLimit(queryString(request.query, 'limit')), deps.now(), connectorId) })
      },
    },
    [withApp],
  )
}

async function update(request: ApiRequest, deps: Deps) {
  const body = await readJsonObject(request, deps.config.maxBodyBytes)
  const id = readResourceId(body, request.query, CONNECTOR_MESSAGES.id)
  const scope = scopeOf(request)
  const existing = await readConnector(scope, id)
  return json(await updateConnector(writer(request, deps), id, parseConnectorInput(body, { existingType: existing.type, allowLocalTargets: allowLocal(deps) })))
}

function writer(request: ApiRequest, deps: Deps): ConnectorWriter {
  return { scope: scopeOf(request), secrets: deps.secrets, now: toTimestamp(deps.now()) }
}

function allowLocal(deps: Deps): boolean {
  return deps.config.section(CONNECTORS_SECTION).allow_local_targets
}

/** The id from the body or query when one is given (preview and sync work on every enabled connector without). */
function optionalId(body: Record<string, unknown>, request: ApiRequest): number | null {
  const given = body.id ?? queryString(request.query, 'id')
  return given === undefined || given === null ? null : readResourceId(body, request.query, CONNECTOR_MESSAGES.id)
}

/** `limit` clamped to 1..100, 25 by default (reference §6 "connector-runs"). */
function runsLimit(raw: string | undefined): number {
  const value = raw !== undefined && /^-?\d+$/.test(raw) ? Number(raw) : 25
  return Math.min(100, Math.max(1, value))
}
