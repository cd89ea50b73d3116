import type { Deps } from '../deps.ts'
import { openScope } from '../apps/open-scope.ts'
import type { ApiRequest } from './router.ts'
import { queryString } from './query.ts'

/**
 * Middleware for application-scoped routes: opens the scope of `app` (seed §1: omitted → the first
 * registered application; unknown → 422) and attaches it as `request.scope`.
 */
export async function withApp(request: ApiRequest, deps: Deps): Promise<undefined> {
  request.scope = await openScope(deps, queryString(request.query, 'app'))
}

/** The scope `withApp` attached; routes registered with `withApp` can rely on it. */
export function scopeOf(request: ApiRequest) {
  if (!request.scope) throw new Error('Route registered without withApp')
  return request.scope
}
