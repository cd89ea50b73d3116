import type { AppScope } from '../apps/app-scope.ts'
import { preparePayloads, type BatchLimits, type BatchPayload } from '../ingest/persist/batch-payload.ts'
import type { EventRecord } from '../ingest/persist/event-record.ts'
import { persistPayloads } from '../ingest/persist/persist-events.ts'

/** Where reading resumes: a byte offset, and whether it lies inside an event already stored. */
export interface Checkpoint {
  readonly nextOffset: number
  readonly insideEvent: boolean
}

/**
 * Turns the records of successive chunks of one file into full persistence batches. Records accumulate
 * across chunks and are cut by the same limits as the batches themselves (count and JSON bytes), so every
 * batch but a file's last is full wherever the chunk borders fall — each batch has a fixed cost. Each batch
 * carries the checkpoint just past it: the next buffered record's start, or the chunk's end. Writes are pipelined — a batch is sent without waiting, so the caller parses the next
 * chunk meanwhile — but strictly one at a time, in file order.
 */
export class BatchWriter {
  private buffer: EventRecord[] = []
  private writing: Promise<unknown> | null = null
  private end: Checkpoint | null = null
  private written: Checkpoint | null = null

  constructor(
    private readonly scope: AppScope,
    private readonly options: {
      readonly sourceFileId: number
      readonly importBatch: string
      readonly limits: BatchLimits
      readonly onBatch: (coveredTo: number) => Promise<void> | void
    },
  ) {}

  /** Adds one chunk's records (file order) and where reading resumes after the chunk; writes full batches. */
  async add(records: readonly EventRecord[], end: Checkpoint, now: string): Promise<void> {
    for (const record of records) this.buffer.push(record)
    this.end = end
    const payloads = preparePayloads(this.buffer, this.options.limits)
    // Every batch but the last is full; the last stays buffered to be topped up by the next chunk.
    if (payloads.length > 1) {
      this.buffer = [...payloads[payloads.length - 1]!.records]
      await this.write(payloads.slice(0, -1), { nextOffset: this.buffer[0]!.byteStart, insideEvent: false }, now)
    }
    // Nothing buffered: move the checkpoint now, so a long stretch of filtered-out lines still shows progress.
    if (this.buffer.length === 0 && this.written?.nextOffset !== end.nextOffset) await this.write([], end, now)
  }

  /** Writes what is buffered with the last chunk's checkpoint, and waits for every write to finish. */
  async flush(now: string): Promise<void> {
    if (this.end && (this.buffer.length > 0 || this.written?.nextOffset !== this.end.nextOffset)) {
      await this.write(preparePayloads(this.buffer.splice(0), this.options.limits), this.end, now)
    }
    await this.settle()
  }

  /** Waits for the write in flight (rethrowing its failure). */
  async settle(): Promise<void> {
    const previous = this.writing
    this.writing = null
    await previous
  }

  private async write(payloads: readonly BatchPayload[], checkpoint: Checkpoint, now: string): Promise<void> {
    await this.settle()
    this.written = checkpoint
    this.writing = persistPayloads(this.scope, payloads, { ...this.options, now, checkpoint })
    this.writing.catch(() => {}) // awaited by settle(); this only keeps it from counting as unhandled meanwhile
  }
}
