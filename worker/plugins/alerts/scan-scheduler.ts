import { logFailure } from '../../log-failure.ts'

/** A scan still marked running after this long is taken for one the runtime cancelled (Workers: 30 s after the response). */
const STALE_SCAN_MS = 30_000

interface Run {
  readonly since: number
  /** Something was ingested after the run's last look: it scans again. */
  again: boolean
}

/**
 * One alerting scan at a time per application and isolate, after the response (`waitUntil`). An ingest that
 * finds a scan going asks it to scan once more instead of starting its own, so a burst of HTTP ingest batches
 * costs a scan or two, not one each. Scans in other isolates may overlap: harmless, each alert is claimed once
 * (alert-scan.ts).
 */
export class ScanScheduler {
  private readonly runs = new Map<string, Run>()

  constructor(private readonly clock: () => number = Date.now) {}

  schedule(appId: string, scan: () => Promise<unknown>, waitUntil: (promise: Promise<unknown>) => void): void {
    const current = this.runs.get(appId)
    if (current && this.clock() - current.since < STALE_SCAN_MS) {
      current.again = true
      return
    }
    const run: Run = { since: this.clock(), again: true }
    this.runs.set(appId, run)
    waitUntil(this.loop(appId, run, scan))
  }

  private async loop(appId: string, run: Run, scan: () => Promise<unknown>): Promise<void> {
    // A timer turn first: the response goes out before the scan's first query (which would otherwise start
    // in the same turn and be counted in the ingesting request's round trips).
    await new Promise((resolve) => setTimeout(resolve, 0))
    try {
      while (run.again) {
        run.again = false
        await scan()
      }
    } catch (error) {
      logFailure(`alert scan of application ${appId} failed; the next ingest scans again`, error)
    } finally {
      if (this.runs.get(appId) === run) this.runs.delete(appId)
    }
  }
}
