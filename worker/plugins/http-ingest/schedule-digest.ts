import type { AppScope } from '../../apps/app-scope.ts'
import type { Deps } from '../../deps.ts'
import { digestIngested } from './digest-ingested.ts'
import { DIGEST_RUN_BUDGET_MS, digestSchedulerFor } from './digest-scheduler.ts'

/** Digests the application's staged events after this request has answered (digest-scheduler.ts). */
export function scheduleDigest(deps: Deps, scope: AppScope): void {
  digestSchedulerFor(deps.registry).schedule(
    scope.app.id,
    (arrived) => digestIngested({ scope, plugins: deps.plugins, services: deps, now: deps.now, budgetMs: DIGEST_RUN_BUDGET_MS, arrived }),
    deps.waitUntil,
  )
}
