import { logFailure } from '../../log-failure.ts'
import type { DigestOutcome } from './digest-ingested.ts'

/**
 * Workers keep `waitUntil` work alive for 30 s after the response (wire-protocols.md "Workers limits"); a run
 * stops starting batches well before, and a run older than this is taken for one the runtime cancelled.
 */
export const DIGEST_RUN_BUDGET_MS = 10_000
const STALE_RUN_MS = 30_000

interface Run {
  readonly since: number
  /** Events were staged after the run's last look: it goes round again. */
  again: boolean
}

/**
 * One digest at a time per application and isolate, started after the accepting request has answered
 * (`waitUntil`). A request that finds a run going only asks it to go round again, so 32 concurrent senders
 * cost one digest loop, not 32; the loop reads the oldest pending rows each time, so it also takes rows staged
 * while it ran. Another isolate's run may overlap — harmless, a staged event is stored once however often it
 * is digested (digest-ingested.ts). Whatever a run leaves (budget spent) the next accepted request or the
 * cron trigger's `maintain` hook digests.
 */
export class DigestScheduler {
  private readonly runs = new Map<string, Run>()

  constructor(private readonly clock: () => number = Date.now) {}

  schedule(appId: string, digest: () => Promise<DigestOutcome>, waitUntil: (promise: Promise<unknown>) => void): void {
    const current = this.runs.get(appId)
    if (current && this.clock() - current.since < STALE_RUN_MS) {
      current.again = true
      return
    }
    const run: Run = { since: this.clock(), again: true }
    this.runs.set(appId, run)
    waitUntil(this.loop(appId, run, digest))
  }

  private async loop(appId: string, run: Run, digest: () => Promise<DigestOutcome>): Promise<void> {
    // A timer turn first: the response goes out before the digest's first query (which would otherwise
    // start in the same turn and be counted in the accepting request's round trips).
    await new Promise((resolve) => setTimeout(resolve, 0))
    try {
      while (run.again && this.clock() - run.since < DIGEST_RUN_BUDGET_MS) {
        run.again = false
        if ((await digest()).more) run.again = true
      }
    } catch (error) {
      logFailure(`ingest digest of application ${appId} failed; the next ingest or the cron trigger retries`, error)
    } finally {
      if (this.runs.get(appId) === run) this.runs.delete(appId)
    }
  }
}

/** One scheduler per isolate, keyed by the isolate's application registry (created once per isolate in app.ts). */
const schedulers = new WeakMap<object, DigestScheduler>()
export function digestSchedulerFor(isolate: object): DigestScheduler {
  let scheduler = schedulers.get(isolate)
  if (!scheduler) schedulers.set(isolate, (scheduler = new DigestScheduler()))
  return scheduler
}
