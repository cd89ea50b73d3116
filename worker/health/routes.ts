import type { ApiRouter } from '../http/router.ts'
import { route } from '../http/router.ts'
import { json } from '../http/respond.ts'
import { checkHealth } from './health.ts'

/** `GET ?api=health` — unauthenticated; 200 when ready, 503 when not. */
export function registerHealthRoutes(router: ApiRouter): void {
  route(router, '/health', {
    GET: async (_request, deps) => {
      const report = await checkHealth(deps)
      return json(report, report.status === 'ok' ? 200 : 503)
    },
  })
}
