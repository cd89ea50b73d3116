import { DASHBOARD_SECTION } from '../config/sections.ts'
import { json } from '../http/respond.ts'
import { route, type ApiRouter } from '../http/router.ts'
import { scopeOf, withApp } from '../http/with-app.ts'
import { getSummary } from './summary.ts'

/** `?api=summary` (reference §3.1). */
export function registerSummaryRoutes(router: ApiRouter): void {
  route(router, '/summary', { GET: async (request, deps) => json(await getSummary(scopeOf(request), deps.now(), deps.config.section(DASHBOARD_SECTION))) }, [withApp])
}
