import type { Deps } from '../../deps.ts'
import { queryString } from '../../http/query.ts'
import { json } from '../../http/respond.ts'
import type { ApiRequest } from '../../http/router.ts'
import { scopeOf } from '../../http/with-app.ts'
import type { PluginRoute } from '../plugin.ts'
import { accessAnalytics, accessDays } from './access-analytics.ts'

/** `GET ?api=access-analytics&days=7` (seed §4.1, reference §4.6); 404 while the plugin is off. */
export const ACCESS_ROUTES: readonly PluginRoute[] = [
  {
    endpoint: 'access-analytics',
    handlers: {
      GET: async (request: ApiRequest, deps: Deps) => json(await accessAnalytics(scopeOf(request), accessDays(queryString(request.query, 'days')), deps.now())),
    },
  },
]
