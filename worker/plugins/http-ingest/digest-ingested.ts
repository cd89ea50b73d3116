import type { Statement } from '../../../drivers/driver.ts'
import { Fragment, sql } from '../../../drivers/sql.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { foldDailyCountsStatements } from '../../digest/persist/daily-counts.ts'
import { IssueValueRollup } from '../../digest/issue-value-rollup.ts'
import { preparePayloads } from '../../digest/persist/batch-payload.ts'
import { persistStatements } from '../../digest/persist/persist-statements.ts'
import { randomToken } from '../../digest/persist/random-token.ts'
import { toTimestamp } from '../../time.ts'
import type { HookServices, Plugin } from '../plugin.ts'
import { runPluginHook } from '../run-plugin-hook.ts'
import { decodePluginSettings, readPluginSettings } from '../plugin-settings.ts'
import { namedBatch } from '../../../drivers/named-batch.ts'
import { resolveStagedStacks } from './resolve-stacks.ts'
import { releaseRegistrationStatements } from '../releases/release-registration.ts'
import { ingestTagStatements } from './ingest-tags.ts'
import { toSourceRecords, type SourceRecords } from './ingest-records.ts'
import { finishStatements, readPendingStatement, toStagedEvents } from './staged-events.ts'

export interface DigestRun {
  readonly scope: AppScope
  readonly plugins: readonly Plugin[]
  /** Handed to the `afterIngest` hooks the digest runs. */
  readonly services: HookServices
  now(): Date
  /** Staged events per digest batch. */
  readonly batchEvents?: number
  /** Stop starting batches after this long (the caller's wall-clock allowance). */
  readonly budgetMs?: number
  /** Whether events were accepted since it was last asked (digest-scheduler.ts): then a small batch lingers. */
  readonly arrived?: () => boolean
  /** How the linger waits (tests count the calls). */
  readonly sleep?: (ms: number) => Promise<void>
}

export interface DigestOutcome {
  readonly events: number
  readonly batches: number
  /** Whether events were left for the next run (the budget ran out). */
  readonly more: boolean
}

/** 200 events of up to ~12 KB of context preview each stay within one persistence payload (batch-payload.ts). */
export const DIGEST_BATCH_EVENTS = 200

/**
 * After a batch of fewer than a quarter of `DIGEST_BATCH_EVENTS`, while events keep arriving, the digest waits
 * this long before reading again, so it stores them in fewer, larger batches: each batch costs four round
 * trips whatever its size, and under 32 senders batches of a handful of events spent more than the accepts
 * (issue 12: workerd CPU per event in wrangler dev 8.4 → 5.3 ms). An event is stored at most this much later.
 */
export const DIGEST_LINGER_MS = 150

/**
 * Stores staged events as issues and occurrences, oldest first, a batch at a time (Bugsink's ingest/digest
 * split). Per batch: one read of the pending rows, module and source-file lookups (one round trip, more only
 * for a module name never seen), then ONE atomic write — the persistence statements of every source file
 * (the same as a file import's, reference §2.6: issues, occurrences, reoccurred, rollups, tag rules), the
 * events' releases (on their occurrences, registered, and each issue's first and regressed release) and tags, the day-count fold, and the rows marked digested. Concurrent digests of the
 * same rows store each event once: an occurrence is unique on (source file, staging id). Plugins'
 * `afterIngest` hooks run after each batch, once per intake (`http`, `sentry`).
 */
export async function digestIngested(run: DigestRun): Promise<DigestOutcome> {
  const { scope } = run
  const started = run.now().getTime()
  let events = 0
  let batches = 0
  let last = Number.POSITIVE_INFINITY
  for (;;) {
    if (last < (run.batchEvents ?? DIGEST_BATCH_EVENTS) / 4 && run.arrived?.()) await (run.sleep ?? sleep)(DIGEST_LINGER_MS)
    if (run.budgetMs !== undefined && batches > 0 && run.now().getTime() - started >= run.budgetMs) return { events, batches, more: true }
    // The plugins' switches ride along with the pending read (one round trip): the stack resolvers and the
    // afterIngest hooks of this batch use them instead of reading them each.
    const read = await namedBatch(scope.db, { pending: readPendingStatement(scope, run.batchEvents ?? DIGEST_BATCH_EVENTS), settings: run.plugins.length > 0 ? readPluginSettings(scope, run.plugins) : null }, { mode: 'read' })
    const rows = read.pending.rows
    if (rows.length === 0) return { events, batches, more: false }
    const settings = decodePluginSettings(run.plugins, read.settings?.rows ?? [])
    const date = run.now()
    const now = toTimestamp(date)
    const staged = await resolveStagedStacks(run, toStagedEvents(rows), settings, date)
    last = rows.length
    const sources = await toSourceRecords(scope, staged, now)
    const importBatch = randomToken()
    const statements: Statement[] = []
    for (const source of sources) {
      for (const payload of preparePayloads(source.records)) statements.push(...persistStatements(scope, payload, { sourceFileId: source.sourceFileId, importBatch, now }))
      statements.push(...releaseStatements(scope, source))
    }
    const occurredAt = new Map(staged.map((s) => [s.id, s.event.occurredAt]))
    const released = sources.flatMap((source) => source.releases.map(([byteStart, release]) => ({ sourceFileId: source.sourceFileId, byteStart, release, occurredAt: occurredAt.get(byteStart)! })))
    statements.push(...releaseRegistrationStatements(scope, released, importBatch, now))
    statements.push(...ingestTagStatements(scope, sources.flatMap((source) => source.tagged), now))
    // The per-issue value breakdown (worker/digest/issue-value-rollup.ts), in this same batch.
    const values = new IssueValueRollup()
    for (const source of sources) values.add(source.records)
    statements.push(...values.take(scope))
    statements.push(...foldDailyCountsStatements(scope))
    statements.push(...finishStatements(scope, rows.map((row) => Number(row.id)), date))
    await scope.db.batch(statements)
    events += staged.length
    batches++
    for (const via of new Set(staged.map((s) => s.via))) {
      const count = staged.filter((s) => s.via === via).length
      await runPluginHook({ plugins: run.plugins, scope, hook: 'afterIngest', now: date, settings, call: (hooks) => hooks.afterIngest?.({ scope, now: date, services: run.services, via, events: count }) })
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** The release each event named, on its occurrence (the releases plugin reads it there). */
function releaseStatements(scope: AppScope, source: SourceRecords): Statement[] {
  if (source.releases.length === 0) return []
  const { t, db } = scope
  const d = db.dialect
  return [
    d.updateFrom(
      t.occurrences,
      'O',
      { [d.quote('release')]: 'r.rel' },
      new Fragment(d.jsonRecords({ bstart: 'integer', rel: 'text' }, 'r'), [JSON.stringify(source.releases.map(([bstart, rel]) => ({ bstart, rel })))]),
      sql`O.source_file_id = ${source.sourceFileId} AND O.byte_start = r.bstart`,
    ),
  ]
}
