import { queryString } from '../http/query.ts'
import { readJsonObject } from '../http/read-body.ts'
import { json } from '../http/respond.ts'
import { route, type ApiRouter } from '../http/router.ts'
import { scopeOf, withApp } from '../http/with-app.ts'
import { requireLogs } from '../intake/log-storage.ts'
import { deleteLogs, previewLogDeletion } from './log-deletion.ts'
import { processedPolicy, processedStatus, pruneProcessed } from './processed-retention.ts'
import { reindex } from './reindex.ts'

/** Maintenance endpoints (reference §3.6): `reindex`, `log-deletion-preview`, `delete-logs`, `processed-retention`. */
export function registerMaintenanceRoutes(router: ApiRouter): void {
  route(router, '/reindex', { POST: async (request, deps) => json(await reindex(deps, scopeOf(request))) }, [withApp])
  route(
    router,
    '/log-deletion-preview',
    {
      GET: async (request) =>
        json(await previewLogDeletion(scopeOf(request), { date: queryString(request.query, 'date'), source_id: queryString(request.query, 'source_id') })),
    },
    [withApp],
  )
  route(
    router,
    '/delete-logs',
    { POST: async (request, deps) => json(await deleteLogs(scopeOf(request), await readJsonObject(request, deps.config.maxBodyBytes), deps.now())) },
    [withApp],
  )
  route(
    router,
    '/processed-retention',
    {
      GET: async (request, deps) => json(await processedStatus(requireLogs(deps), scopeOf(request).app.id, processedPolicy(deps))),
      POST: async (request, deps) => {
        const logs = requireLogs(deps)
        const appId = scopeOf(request).app.id
        const status = await processedStatus(logs, appId, processedPolicy(deps))
        return json({ status, pruned: await pruneProcessed(logs, appId, processedPolicy(deps), deps.now()) })
      },
    },
    [withApp],
  )
}
