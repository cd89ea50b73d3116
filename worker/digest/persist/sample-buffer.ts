import type { EventRecord } from './event-record.ts'

/** Beyond this many fingerprints the "already stored" memory is dropped (costs only redundant insert rows). */
const STORED_LIMIT = 100_000

/**
 * What one import run knows about the issues it writes (docs/ingestion.md "Throughput"):
 * - which fingerprints an earlier batch of the run has stored, so later batches send no insert row for them;
 * - each touched issue's latest event whose sample is not written yet. Samples are written when the run ends
 *   (or when this buffer holds more than `maxBytes`), not with every batch: a batch of 1,000 events touches
 *   hundreds of issues, and rewriting each one's sample per batch was the largest single cost of an import.
 *   Counts, first/last seen and status are still written with every batch; only the sample text lags, and
 *   only while the run is in progress.
 */
export class SampleBuffer {
  private readonly stored = new Set<string>()
  private readonly pending = new Map<string, EventRecord>()
  private pendingBytes = 0

  constructor(readonly maxBytes: number) {}

  isStored(fingerprint: string): boolean {
    return this.stored.has(fingerprint)
  }

  /** Records that a batch writing these fingerprints' issues is committed (or committed before any later one). */
  markStored(fingerprints: Iterable<string>): void {
    if (this.stored.size >= STORED_LIMIT) this.stored.clear()
    for (const fingerprint of fingerprints) this.stored.add(fingerprint)
  }

  /** Remembers `record` as its issue's latest event (records arrive in file order: the last one wins). */
  offer(record: EventRecord): void {
    const previous = this.pending.get(record.fingerprint)
    if (previous !== undefined) this.pendingBytes -= sampleSize(previous)
    this.pending.set(record.fingerprint, record)
    this.pendingBytes += sampleSize(record)
  }

  get full(): boolean {
    return this.pendingBytes > this.maxBytes
  }

  get empty(): boolean {
    return this.pending.size === 0
  }

  /** Takes every pending latest event, in the order issues were first touched. */
  drain(): EventRecord[] {
    const records = [...this.pending.values()]
    this.pending.clear()
    this.pendingBytes = 0
    return records
  }
}

/** An upper estimate of one issue row's JSON size in UTF-16 units (escaping and multi-byte text aside). */
export function sampleSize(record: EventRecord): number {
  return 400 + record.title.length + record.message.length + (record.stack?.length ?? 0) + (record.context?.length ?? 0)
}
