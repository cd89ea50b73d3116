import type { AppScope } from '../apps/app-scope.ts'
import { tablePrefix, tablesFor } from '../apps/tables.ts'
import type { Deps } from '../deps.ts'

/**
 * The scope of an application addressed by id outside a request (queue messages, the cron trigger): what
 * `withApp` attaches to a request, schema made current included.
 */
export async function openScope(deps: Deps, appId: string): Promise<AppScope> {
  const main = deps.databases.main()
  const app = await deps.registry.resolve(main, appId, deps.now())
  const handle = deps.databases.forApplication(app.id)
  await deps.registry.ensureSchema(handle, app, deps.now())
  return { app, db: handle.db, t: tablesFor(tablePrefix(app.namespace, handle.dedicated), handle.db.dialect) }
}
