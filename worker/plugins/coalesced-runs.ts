import { logFailure } from '../log-failure.ts'

export interface CoalescedRunsOptions {
  /** A run still marked as going after this long is taken for one the runtime cancelled (Workers: 30 s after the response). */
  readonly staleMs: number
  /** A run stops going round after this long; what it leaves waits for the next trigger. */
  readonly budgetMs?: number
  /** The log line when a run fails, for a key. */
  readonly failure: (key: string) => string
  readonly clock?: () => number
}

interface Run {
  readonly since: number
  /** Asked for again after the run's last look: it goes round once more. */
  again: boolean
}

/**
 * Background work after the response (`waitUntil`), one run at a time per key (an application) and isolate.
 * A trigger that finds a run going only asks it to go round again, so a burst of triggers costs one or two
 * runs, not one each; a run starts a timer turn after its trigger, so its first query is not counted in the
 * triggering request's round trips. `work` answers whether it left work behind (it then goes round again).
 * Used by the HTTP ingest digest and the alerting scan.
 */
export class CoalescedRuns {
  private readonly runs = new Map<string, Run>()
  private readonly clock: () => number

  constructor(private readonly options: CoalescedRunsOptions) {
    this.clock = options.clock ?? Date.now
  }

  /**
   * `work` may ask `arrived()` whether a trigger came since it last asked (or since it started): the digest
   * lingers for more events only then.
   */
  schedule(key: string, work: (arrived: () => boolean) => Promise<boolean>, waitUntil: (promise: Promise<unknown>) => void): void {
    const current = this.runs.get(key)
    if (current && this.clock() - current.since < this.options.staleMs) {
      current.again = true
      return
    }
    const run: Run = { since: this.clock(), again: true }
    this.runs.set(key, run)
    waitUntil(this.loop(key, run, work))
  }

  private async loop(key: string, run: Run, work: (arrived: () => boolean) => Promise<boolean>): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 0))
    const budget = this.options.budgetMs ?? Number.POSITIVE_INFINITY
    const arrived = () => {
      const again = run.again
      run.again = false
      return again
    }
    try {
      while (run.again && this.clock() - run.since < budget) {
        run.again = false
        if (await work(arrived)) run.again = true
      }
    } catch (error) {
      logFailure(this.options.failure(key), error)
    } finally {
      if (this.runs.get(key) === run) this.runs.delete(key)
    }
  }
}
