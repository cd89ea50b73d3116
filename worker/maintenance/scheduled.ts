import type { Deps } from '../deps.ts'
import { openResolvedScope } from '../apps/open-scope.ts'
import { maintainApplication } from './maintain-application.ts'
import { logFailure } from '../log-failure.ts'

/**
 * The cron trigger's work, per application: bring its schema up to date (so after a deploy with new
 * migrations the first API request does not pay for them), then its maintenance — resuming interrupted
 * imports and occurrence retention. One application's failure is logged and does not stop the others.
 */
export async function runScheduledMaintenance(deps: Deps, _cron: string): Promise<void> {
  const main = deps.databases.main()
  for (const app of await deps.registry.reload(main, deps.now())) {
    try {
      await maintainApplication(deps, await openResolvedScope(deps, app))
    } catch (error) {
      logFailure(`scheduled maintenance of application ${app.id} failed`, error)
    }
  }
}
