import type { Deps } from '../deps.ts'
import { tablePrefix, tablesFor } from '../apps/tables.ts'
import { maintainApplication } from './maintain-application.ts'

/**
 * The cron trigger's work, per application: bring its schema up to date (so after a deploy with new
 * migrations the first API request does not pay for them), then its maintenance — resuming interrupted
 * imports and occurrence retention. One application's failure is logged and does not stop the others.
 */
export async function runScheduledMaintenance(deps: Deps, _cron: string): Promise<void> {
  const main = deps.databases.main()
  for (const app of await deps.registry.reload(main, deps.now())) {
    try {
      const handle = deps.databases.forApplication(app.id)
      await deps.registry.ensureSchema(handle, app, deps.now())
      await maintainApplication(deps, { app, db: handle.db, t: tablesFor(tablePrefix(app.namespace, handle.dedicated), handle.db.dialect) })
    } catch (error) {
      console.error(`loupe: scheduled maintenance of application ${app.id} failed:`, error instanceof Error ? `${error.name}: ${error.message}` : error)
    }
  }
}
