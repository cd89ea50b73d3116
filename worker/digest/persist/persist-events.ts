import type { Statement } from '../../../drivers/driver.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { DEFAULT_BATCH_LIMITS, preparePayloads, type BatchLimits, type BatchPayload } from './batch-payload.ts'
import type { EventRecord } from './event-record.ts'
import { persistStatements } from './persist-statements.ts'

export interface PersistOptions {
  readonly sourceFileId: number
  /** Token marking the occurrences inserted by this run (see `BatchTarget.importBatch`). */
  readonly importBatch: string
  readonly now: string
  /**
   * Where reading resumes once every record is stored. Each batch carries its own checkpoint — the start of
   * the next batch's first event, and this one for the last batch — so an interruption between batches loses
   * nothing and duplicates nothing.
   */
  readonly checkpoint?: { readonly nextOffset: number; readonly insideEvent: boolean }
  readonly limits?: BatchLimits
  /** Called after each stored batch with the byte offset it covered (progress reporting). */
  readonly onBatch?: (coveredTo: number) => Promise<void> | void
  /** Statements riding in the batch that moves the checkpoint to `upTo` (the access rollup, access-rollup.ts). */
  readonly extra?: (upTo: number) => readonly Statement[]
}

/**
 * Persists analysed events (in file order) as issues and occurrences (reference §2.6): batches of at most
 * `limits.maxEvents` events and `limits.maxJsonBytes` per JSON parameter, each ONE atomic `db.batch`
 * whatever its size; the issues' latest samples go with the last one. Returns the number of batches written.
 */
export async function persistEvents(scope: AppScope, records: readonly EventRecord[], options: PersistOptions): Promise<number> {
  return persistPayloads(scope, preparePayloads(records, options.limits ?? DEFAULT_BATCH_LIMITS), options)
}

/** Writes batches already cut by `preparePayloads`/`serialiseBatch`, each with the checkpoint just past it. */
export async function persistPayloads(scope: AppScope, payloads: readonly BatchPayload[], options: PersistOptions): Promise<number> {
  if (payloads.length === 0) {
    if (options.checkpoint) {
      const empty: BatchPayload = { records: [], eventsJson: [], groupsJson: [], samplesJson: [], fingerprintsJson: '[]', firstByte: 0, lastByte: 0 }
      await scope.db.batch([...persistStatements(scope, empty, options), ...(options.extra?.(options.checkpoint.nextOffset) ?? [])])
      await options.onBatch?.(options.checkpoint.nextOffset)
    }
    return 0
  }
  let coveredTo = 0
  for (let i = 0; i < payloads.length; i++) {
    const payload = payloads[i]!
    // A batch ends where the next batch holding events starts; the last one (and a samples-only one) at the checkpoint given.
    const next = payloads.slice(i + 1).find((p) => p.records.length > 0)
    const checkpoint = options.checkpoint && (next ? { nextOffset: next.records[0]!.byteStart, insideEvent: false } : options.checkpoint)
    await scope.db.batch([...persistStatements(scope, payload, { ...options, checkpoint }), ...((checkpoint && options.extra?.(checkpoint.nextOffset)) || [])])
    coveredTo = checkpoint ? checkpoint.nextOffset : (payload.records.at(-1)?.byteEnd ?? coveredTo)
    await options.onBatch?.(coveredTo)
  }
  return payloads.length
}
