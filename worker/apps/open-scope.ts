import type { AppScope } from './app-scope.ts'
import type { Application } from './application.ts'
import { tablePrefix, tablesFor } from './tables.ts'
import type { Deps } from '../deps.ts'

/**
 * The one way to open an application's scope — for a request (`withApp`), a queue message or the cron
 * trigger alike: resolve the application (an id, or `undefined` for the first registered one, seed §1),
 * make its schema current, and name its tables.
 */
export async function openScope(deps: Deps, appId: string | undefined): Promise<AppScope> {
  const app = await deps.registry.resolve(deps.databases.main(), appId, deps.now())
  return openResolvedScope(deps, app)
}

/** `openScope`, or null when no such application is registered (any more). */
export async function openScopeIfRegistered(deps: Deps, appId: string): Promise<AppScope | null> {
  const app = await deps.registry.find(deps.databases.main(), appId, deps.now())
  return app ? openResolvedScope(deps, app) : null
}

/**
 * The scope of the application with this namespace — its stable numeric id, which Sentry DSNs carry as the
 * project (SDKs accept only numeric projects) — or null when none has it (after one reload).
 */
export async function openScopeByNamespace(deps: Deps, namespace: number): Promise<AppScope | null> {
  const main = deps.databases.main()
  const pick = (apps: Application[]) => apps.find((app) => app.namespace === namespace)
  const app = pick(await deps.registry.list(main, deps.now())) ?? pick(await deps.registry.reload(main, deps.now()))
  return app ? openResolvedScope(deps, app) : null
}

/** `openScope` for an application already read from the registry (the cron trigger walks them all). */
export async function openResolvedScope(deps: Deps, app: Application): Promise<AppScope> {
  const handle = deps.databases.forApplication(app.id)
  await deps.registry.ensureSchema(handle, app, deps.now())
  return { app, db: handle.db, t: tablesFor(tablePrefix(app.namespace, handle.dedicated), handle.db.dialect) }
}
