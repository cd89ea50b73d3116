import type { Statement } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { batchEnd, eventRow, preparePayloads, rowSize, serialiseBatch, type BatchLimits, type BatchPayload } from './persist/batch-payload.ts'
import type { EventRecord } from './persist/event-record.ts'
import { persistPayloads } from './persist/persist-events.ts'
import { SampleBuffer } from './persist/sample-buffer.ts'

/** Where reading resumes: a byte offset, and whether it lies inside an event already stored. */
export interface Checkpoint {
  readonly nextOffset: number
  readonly insideEvent: boolean
}

/**
 * Turns the records of successive chunks of one file into full persistence batches. Records accumulate
 * across chunks and are cut by the same limits as the batches themselves (count and JSON bytes), so every
 * batch but a file's last is full wherever the chunk borders fall — each batch has a fixed cost. Each batch
 * carries the checkpoint just past it: the next buffered record's start, or the chunk's end. The run's
 * latest issue samples are written with its last batch (`SampleBuffer`). Writes are pipelined — a batch is
 * sent without waiting, so the caller parses the next chunk meanwhile — but strictly one at a time, in file
 * order.
 */
export class BatchWriter {
  private records: EventRecord[] = []
  /** Each buffered record's occurrence row and its size, serialised once when the record arrives. */
  private rows: string[] = []
  private sizes: number[] = []
  private readonly samples: SampleBuffer
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
      readonly extra?: (upTo: number) => readonly Statement[]
    },
  ) {
    this.samples = new SampleBuffer(options.limits.maxPendingSampleBytes)
  }

  /** Adds one chunk's records (file order) and where reading resumes after the chunk; writes full batches. */
  async add(records: readonly EventRecord[], end: Checkpoint, now: string): Promise<void> {
    for (const record of records) {
      const row = eventRow(record)
      this.records.push(record)
      this.rows.push(row)
      this.sizes.push(rowSize(row))
    }
    this.end = end
    const { limits } = this.options
    const payloads: BatchPayload[] = []
    let start = 0
    for (;;) {
      const stop = batchEnd(this.records, this.sizes, start, limits, this.samples)
      if (stop >= this.records.length) break // not full yet: topped up by the next chunk
      payloads.push(...serialiseBatch(this.records.slice(start, stop), this.rows.slice(start, stop), this.sizes.slice(start, stop), limits, this.samples, false))
      start = stop
    }
    if (start > 0) {
      this.records.splice(0, start)
      this.rows.splice(0, start)
      this.sizes.splice(0, start)
      const next = this.records[0]
      await this.write(payloads, next ? { nextOffset: next.byteStart, insideEvent: false } : end, now)
    }
    // Nothing buffered: move the checkpoint now, so a long stretch of filtered-out lines still shows progress.
    if (this.records.length === 0 && this.written?.nextOffset !== end.nextOffset) await this.write([], end, now)
  }

  /** Writes what is buffered and the run's pending samples with the last chunk's checkpoint, and waits for every write. */
  async flush(now: string): Promise<void> {
    if (this.end && (this.records.length > 0 || !this.samples.empty || this.written?.nextOffset !== this.end.nextOffset)) {
      const records = this.records.splice(0)
      this.rows = []
      this.sizes = []
      await this.write(preparePayloads(records, this.options.limits, this.samples, true), this.end, now)
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
