import type { Deps } from '../deps.ts'
import { tablePrefix, tablesFor } from '../apps/tables.ts'
import type { ApiRequest } from './router.ts'
import { queryString } from './query.ts'

/**
 * Middleware for application-scoped routes: resolves `app` (seed §1: omitted → the first registered
 * application; unknown → 422), makes sure its schema is current, and attaches `request.scope`.
 */
export async function withApp(request: ApiRequest, deps: Deps): Promise<undefined> {
  const main = deps.databases.main()
  const app = await deps.registry.resolve(main, queryString(request.query, 'app'), deps.now())
  const handle = deps.databases.forApplication(app.id)
  await deps.registry.ensureSchema(handle, app, deps.now())
  request.scope = { app, db: handle.db, t: tablesFor(tablePrefix(app.namespace, handle.dedicated), handle.db.dialect) }
}

/** The scope `withApp` attached; routes registered with `withApp` can rely on it. */
export function scopeOf(request: ApiRequest) {
  if (!request.scope) throw new Error('Route registered without withApp')
  return request.scope
}
