import { deadlineError } from '../../../drivers/deadline.ts'
import type { DriverName } from '../../../drivers/driver.ts'
import { namedBatch } from '../../../drivers/named-batch.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { toTimestamp } from '../../time.ts'
import type { Plugin } from '../plugin.ts'
import { GroupCommit } from './group-commit.ts'
import { gateRead, stillOpen, toGateView, type GateView } from './ingest-gate.ts'
import { countRateStatements, rateWindow, type RateCap, type RateCount, type RateWindow } from './rate-limit.ts'
import { stageStatements } from './staged-events.ts'

/** One accepted request's share of a commit. */
export interface StagingItem {
  /** The request's application scope: a commit runs on its leader's (first item's) connection. */
  readonly scope: AppScope
  readonly plugin: Plugin
  /** `stagedRow`s of the accepted events. */
  readonly rows: readonly string[]
  readonly bytes: number
  readonly caps: readonly RateCap[]
  readonly window: RateWindow
  /** The sealed key the request's key was checked against: its rows are staged only while it is stored. */
  readonly sealed: string
  readonly windowSeconds: number
}

/** `staged`, or `closed`: the switch or the key changed before the commit, nothing of the request was staged. */
export type StagingOutcome = 'staged' | 'closed'

/**
 * Accepted requests' rows waiting for one commit together (group-commit.ts). A commit is ONE atomic batch:
 * each request's rows inserted under the condition that the key it was checked against is still stored and
 * the plugin still on, the rate counters added, and the gate's three reads again — so under load the gate
 * view (ingest-gate.ts) stays as fresh as the last commit without a read of its own.
 */
const MAX_COMMIT_BYTES = 4 * 1024 * 1024

/**
 * How long a request waits for the commit carrying its rows before it answers 503: the commit runs under the
 * database deadline (at most one `database.timeout_ms` per queued commit ahead), and Workers keep `waitUntil`
 * work 30 s at most.
 */
const MAX_WAIT_MS = 30_000

export class IngestCommitter {
  view: GateView | undefined
  /** Events let in and not yet committed, per cap scope, counted in the current bucket. */
  readonly reserved = new Map<string, number>()
  private refreshing: Promise<GateView> | null = null
  private sweptBucket: number | null = null
  private readonly group: GroupCommit<StagingItem, StagingOutcome>

  constructor(
    driver: DriverName,
    private readonly clock: () => number,
  ) {
    this.group = new GroupCommit((items) => this.commit(items), MAX_COMMIT_BYTES, { maxWaitMs: MAX_WAIT_MS, timedOut: () => deadlineError(driver, MAX_WAIT_MS) })
  }

  /** Reads the view afresh (concurrent callers share one read). */
  async refresh(scope: AppScope, plugin: Plugin, caps: readonly RateCap[], window: RateWindow): Promise<GateView> {
    if (!this.refreshing) {
      this.refreshing = (async () => {
        try {
          const { rows } = await scope.db.execute(gateRead(scope, plugin, caps, window))
          return (this.view = toGateView(plugin, rows, caps, window, this.clock(), this.view))
        } finally {
          this.refreshing = null
        }
      })()
    }
    const view = await this.refreshing
    // A shared read made for other caps may lack this request's (a new client IP): read those too.
    return caps.every((cap) => view.counters.has(cap.scope)) ? view : this.refresh(scope, plugin, caps, window)
  }

  /** Stages a request's rows with the next commit; their count is held in `reserved` until it lands. */
  async stage(item: StagingItem, waitUntil: (promise: Promise<unknown>) => void): Promise<StagingOutcome> {
    const count = item.rows.length
    for (const cap of item.caps) this.reserved.set(cap.scope, (this.reserved.get(cap.scope) ?? 0) + count)
    try {
      return await this.group.submit(item, item.bytes, waitUntil)
    } finally {
      for (const cap of item.caps) {
        const left = (this.reserved.get(cap.scope) ?? 0) - count
        if (left > 0) this.reserved.set(cap.scope, left)
        else this.reserved.delete(cap.scope)
      }
    }
  }

  private async commit(items: readonly StagingItem[]): Promise<StagingOutcome[]> {
    const { scope, plugin } = items[0]!
    const date = new Date(this.clock())
    const now = toTimestamp(date)
    const bySealed = new Map<string, string[]>()
    for (const item of items) {
      const rows = bySealed.get(item.sealed) ?? []
      rows.push(...item.rows)
      bySealed.set(item.sealed, rows)
    }
    const counts = new Map<string, RateCount>()
    const caps = new Map<string, RateCap>()
    for (const item of items) {
      for (const cap of item.caps) {
        caps.set(cap.scope, cap)
        const key = `${cap.scope}\u0000${item.window.bucket}`
        const count = counts.get(key)
        counts.set(key, { scope: cap.scope, bucket: item.window.bucket, count: (count?.count ?? 0) + item.rows.length })
      }
    }
    const window = rateWindow(date, items[0]!.windowSeconds)
    // Older buckets are forgotten once per window and committer, not by every commit.
    const sweep = this.sweptBucket !== window.bucket ? window.bucket - 1 : null
    const { gate } = await namedBatch(scope.db, {
      stage: [...bySealed].flatMap(([sealed, rows]) => stageStatements(scope, rows, now, stillOpen(scope, plugin, sealed))),
      count: countRateStatements(scope, [...counts.values()], sweep),
      gate: gateRead(scope, plugin, [...caps.values()], window),
    })
    this.sweptBucket = window.bucket
    const view = (this.view = toGateView(plugin, gate.rows, [...caps.values()], window, this.clock(), this.view))
    return items.map((item) => (view.enabled && view.sealed === item.sealed ? 'staged' : 'closed'))
  }
}

/** Per isolate (keyed by its registry, as the digest scheduler): one committer per application. */
const committers = new WeakMap<object, Map<string, IngestCommitter>>()
export function committerFor(isolate: object, scope: AppScope, clock: () => number = Date.now): IngestCommitter {
  let byApp = committers.get(isolate)
  if (!byApp) committers.set(isolate, (byApp = new Map()))
  let committer = byApp.get(scope.app.id)
  if (!committer) byApp.set(scope.app.id, (committer = new IngestCommitter(scope.db.name, clock)))
  return committer
}
