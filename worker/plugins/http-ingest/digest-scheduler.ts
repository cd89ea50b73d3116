import { CoalescedRuns } from '../coalesced-runs.ts'
import type { DigestOutcome } from './digest-ingested.ts'

/**
 * Workers keep `waitUntil` work alive for 30 s after the response (wire-protocols.md "Workers limits"); a run
 * stops starting batches well before, and a run older than this is taken for one the runtime cancelled.
 */
export const DIGEST_RUN_BUDGET_MS = 10_000
const STALE_RUN_MS = 30_000

/**
 * One digest at a time per application and isolate, started after the accepting request has answered
 * (`waitUntil`). A request that finds a run going only asks it to go round again, so 32 concurrent senders
 * cost one digest loop, not 32; the loop reads the oldest pending rows each time, so it also takes rows staged
 * while it ran. Another isolate's run may overlap — harmless, a staged event is stored once however often it
 * is digested (digest-ingested.ts). Whatever a run leaves (budget spent) the next accepted request or the
 * cron trigger's `maintain` hook digests.
 */
export class DigestScheduler {
  private readonly runs: CoalescedRuns

  constructor(clock: () => number = Date.now) {
    this.runs = new CoalescedRuns({
      staleMs: STALE_RUN_MS,
      budgetMs: DIGEST_RUN_BUDGET_MS,
      clock,
      failure: (appId) => `ingest digest of application ${appId} failed; the next ingest or the cron trigger retries`,
    })
  }

  schedule(appId: string, digest: (arrived: () => boolean) => Promise<DigestOutcome>, waitUntil: (promise: Promise<unknown>) => void): void {
    this.runs.schedule(appId, async (arrived) => (await digest(arrived)).more, waitUntil)
  }
}

/** One scheduler per isolate, keyed by the isolate's application registry (created once per isolate in app.ts). */
const schedulers = new WeakMap<object, DigestScheduler>()
export function digestSchedulerFor(isolate: object): DigestScheduler {
  let scheduler = schedulers.get(isolate)
  if (!scheduler) schedulers.set(isolate, (scheduler = new DigestScheduler()))
  return scheduler
}
