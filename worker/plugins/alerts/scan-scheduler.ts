import { CoalescedRuns } from '../coalesced-runs.ts'

/** A scan still marked running after this long is taken for one the runtime cancelled (Workers: 30 s after the response). */
const STALE_SCAN_MS = 30_000

/**
 * One alerting scan at a time per application and isolate, after the response (`waitUntil`). An ingest that
 * finds a scan going asks it to scan once more instead of starting its own, so a burst of HTTP ingest batches
 * costs a scan or two, not one each. Scans in other isolates may overlap: harmless, each alert is claimed once
 * (alert-scan.ts).
 */
export class ScanScheduler {
  private readonly runs: CoalescedRuns

  constructor(clock: () => number = Date.now) {
    this.runs = new CoalescedRuns({ staleMs: STALE_SCAN_MS, clock, failure: (appId) => `alert scan of application ${appId} failed; the next ingest scans again` })
  }

  schedule(appId: string, scan: () => Promise<unknown>, waitUntil: (promise: Promise<unknown>) => void): void {
    this.runs.schedule(
      appId,
      async () => {
        await scan()
        return false
      },
      waitUntil,
    )
  }
}
