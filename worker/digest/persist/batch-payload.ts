import { utf8Length } from '../utf8.ts'
import type { EventRecord } from './event-record.ts'
import { SampleBuffer, sampleSize } from './sample-buffer.ts'
import { signatureFields, textSignature } from '../../issues/search-signature.ts'

/**
 * One persistence batch, serialised: the JSON parameters its statements expand with `dialect.jsonRecords`.
 * A row source takes a few parameters (D1 binds at most 100 per statement, and refuses strings over 1 MB),
 * each a JSON array of at most `maxJsonBytes`.
 */
export interface BatchPayload {
  readonly records: readonly EventRecord[]
  /** Occurrence rows, one per event, in at most `maxJsonParameters` arrays. */
  readonly eventsJson: readonly string[]
  /**
   * Issue rows for the fingerprints no earlier batch of the run stored, one per fingerprint: the batch's latest
   * event and the first/last time of its events, in at most `maxJsonParameters` arrays (none when there are no
   * rows). The batch inserts those that are new issues. Empty when the batch carries samples, whose rows cover
   * every issue it touches.
   */
  readonly groupsJson: readonly string[]
  /** The run's pending latest samples (see `SampleBuffer`), written by this batch; usually none. */
  readonly samplesJson: readonly string[]
  /** `[{fp}]` of every issue the batch touched or re-sampled (the tag-rule pass). */
  readonly fingerprintsJson: string
  /** Smallest and largest `byte_start`: with the source file they bound the unique-index range the batch wrote. */
  readonly firstByte: number
  readonly lastByte: number
}

export interface BatchLimits {
  /**
   * Events per batch (config `ingestion.import_batch_events`). The reference commits every 1000 events; the
   * default here is 8000 because each issue a batch touches costs an update, so larger batches cost less per
   * event (measured 38 → 29 ms of SQL per 1,000 events from 2000 to 4000; docs/ingestion.md "Throughput").
   * Either way a batch is one round trip, so 1000 events cost at most one.
   */
  readonly maxEvents: number
  /**
   * UTF-8 bytes per JSON parameter. D1 refuses strings over 1 MB; 800 KB leaves room for escaping
   * differences between engines.
   */
  readonly maxJsonBytes: number
  /** JSON parameters per row source: a batch's occurrence rows, and its issue rows, each fit in this many. */
  readonly maxJsonParameters: number
  /** Pending samples a run holds before writing them with the next batch (`SampleBuffer`): three parameters. */
  readonly maxPendingSampleBytes: number
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxEvents: 8000, maxJsonBytes: 800_000, maxJsonParameters: 5, maxPendingSampleBytes: 2_400_000 }

/**
 * Cuts records (in file order) into batches and serialises them for one run; with `final` the run's pending
 * samples go with the last batch. Used where a whole run's records are at hand (`persistEvents`);
 * `BatchWriter` drives `batchEnd` and `serialiseBatch` itself as chunks arrive.
 */
export function preparePayloads(
  records: readonly EventRecord[],
  limits: BatchLimits = DEFAULT_BATCH_LIMITS,
  samples = new SampleBuffer(limits.maxPendingSampleBytes),
  final = true,
): BatchPayload[] {
  const rows = records.map(eventRow)
  const sizes = rows.map(rowSize)
  const payloads: BatchPayload[] = []
  for (let start = 0; start < records.length; ) {
    const end = batchEnd(records, sizes, start, limits, samples)
    payloads.push(...serialiseBatch(records.slice(start, end), rows.slice(start, end), sizes.slice(start, end), limits, samples, final && end === records.length))
    start = end
  }
  if (final && records.length === 0 && !samples.empty) payloads.push(...serialiseBatch([], [], [], limits, samples, true))
  return payloads
}

/**
 * Where the batch starting at `start` ends: the first record that would break a limit (event count, the
 * occurrence rows' exact bytes packed into `maxJsonParameters` arrays, or likewise the estimated issue rows
 * of fingerprints the run has not stored), or `records.length` when none does — a batch that may still grow.
 */
export function batchEnd(records: readonly EventRecord[], sizes: readonly number[], start: number, limits: BatchLimits, samples: SampleBuffer): number {
  const events = new ChunkCount(limits.maxJsonBytes)
  const groups = new ChunkCount(limits.maxJsonBytes)
  const seen = new Map<string, number>()
  for (let i = start; i < records.length; i++) {
    const record = records[i]!
    const groupSize = samples.isStored(record.fingerprint) ? 0 : sampleSize(record)
    const previous = seen.get(record.fingerprint) ?? 0
    const growth = Math.max(0, groupSize - previous)
    if (i > start && (i - start >= limits.maxEvents || events.after(sizes[i]!) > limits.maxJsonParameters || groups.after(growth) > limits.maxJsonParameters)) return i
    events.add(sizes[i]!)
    groups.add(growth)
    seen.set(record.fingerprint, Math.max(previous, groupSize))
  }
  return records.length
}

/**
 * Counts the JSON arrays that rows packed greedily, in order, into arrays of at most `maxBytes` take — the
 * packing `packRows` does. A row larger than that gets an array of its own.
 */
class ChunkCount {
  private count = 0
  private bytes = 0
  constructor(private readonly maxBytes: number) {}

  /** Arrays so far. */
  get arrays(): number {
    return this.count
  }

  /** The number of arrays once a row of `size` bytes (its comma included) is added. */
  after(size: number): number {
    if (size === 0) return this.count
    return this.count === 0 || this.bytes + size > this.maxBytes ? this.count + 1 : this.count
  }

  add(size: number): void {
    if (size === 0) return
    if (this.count === 0 || this.bytes + size > this.maxBytes) {
      this.count++
      this.bytes = 2 + size // the array's brackets
    } else this.bytes += size
  }
}

/** Rows (with their sizes, comma included) packed greedily, in order, into JSON arrays of at most `maxBytes`. */
function packRows(rows: readonly string[], sizes: readonly number[], maxBytes: number): string[] {
  const chunks: string[] = []
  const counter = new ChunkCount(maxBytes)
  let from = 0
  for (let i = 0; i < rows.length; i++) {
    if (counter.after(sizes[i]!) > counter.arrays && i > from) {
      chunks.push(`[${rows.slice(from, i).join(',')}]`)
      from = i
    }
    counter.add(sizes[i]!)
  }
  if (rows.length > from) chunks.push(`[${rows.slice(from).join(',')}]`)
  return chunks
}

/**
 * Serialises one batch cut by `batchEnd`, halving it when its issue rows turn out larger than estimated, and
 * records it in the run's samples. With `final`, or once the pending samples outgrow their limit, the last
 * payload also carries every pending sample.
 */
export function serialiseBatch(
  records: readonly EventRecord[],
  rows: readonly string[],
  sizes: readonly number[],
  limits: BatchLimits,
  samples: SampleBuffer,
  final: boolean,
): BatchPayload[] {
  const out: BatchPayload[] = []
  if (records.length > 0) fit(records, rows, sizes, limits, samples, out)
  if ((final || samples.full) && !samples.empty) {
    const last = out.pop() ?? serialise([], [], [], limits.maxJsonBytes, samples)
    const drained = samples.drain()
    const fingerprints = new Set(last.records.map((r) => r.fingerprint))
    for (const record of drained) fingerprints.add(record.fingerprint)
    // The sample rows cover every issue of the batch, so they also insert its new ones (no `groupsJson`).
    out.push({ ...last, groupsJson: [], samplesJson: sampleChunks(drained, limits.maxJsonBytes), fingerprintsJson: fingerprintList(fingerprints) })
  }
  return out
}

/** The UTF-8 size of one occurrence row plus its comma. */
export function rowSize(row: string): number {
  return utf8Length(row) + 1
}

function fit(records: readonly EventRecord[], rows: readonly string[], sizes: readonly number[], limits: BatchLimits, samples: SampleBuffer, out: BatchPayload[]): void {
  const payload = serialise(records, rows, sizes, limits.maxJsonBytes, samples)
  // Occurrence rows were cut on their exact size; the issue rows were estimated, so their count is checked.
  const fitsAll = payload.eventsJson.length <= limits.maxJsonParameters && payload.groupsJson.length <= limits.maxJsonParameters
  if (records.length === 1 ? fitsAll && withinBytes(payload, limits.maxJsonBytes) : fitsAll) {
    commit(payload, samples, out)
  } else if (records.length > 1) {
    const half = Math.ceil(records.length / 2)
    fit(records.slice(0, half), rows.slice(0, half), sizes.slice(0, half), limits, samples, out)
    fit(records.slice(half), rows.slice(half), sizes.slice(half), limits, samples, out)
  } else {
    const shrunk = shrink(records[0]!, limits.maxJsonBytes)
    const row = eventRow(shrunk)
    commit(serialise([shrunk], [row], [rowSize(row)], limits.maxJsonBytes, samples), samples, out)
  }
}

/** A single event's rows: each within the byte limit (a larger one would have an array of its own). */
function withinBytes(payload: BatchPayload, maxBytes: number): boolean {
  return [...payload.eventsJson, ...payload.groupsJson].every((json) => utf8Length(json) <= maxBytes)
}

function commit(payload: BatchPayload, samples: SampleBuffer, out: BatchPayload[]): void {
  for (const record of payload.records) samples.offer(record)
  samples.markStored(payload.records.map((r) => r.fingerprint))
  out.push(payload)
}

/** Halves the longest sample field until the issue row fits (only for a pathological single event). */
function shrink(record: EventRecord, maxBytes: number): EventRecord {
  let current = record
  for (let round = 0; round < 40; round++) {
    if (utf8Length(issueRow(current, current.occurredAt, current.occurredAt, true)) + 2 <= maxBytes && utf8Length(eventRow(current)) + 2 <= maxBytes) return current
    const fields = (['message', 'stack', 'context', 'preview'] as const).filter((field) => (current[field]?.length ?? 0) > 0)
    const longest = fields.sort((a, b) => (current[b]?.length ?? 0) - (current[a]?.length ?? 0))[0]
    if (longest === undefined) return current
    const value = current[longest]!
    current = { ...current, [longest]: value.slice(0, Math.floor(value.length / 2)) }
  }
  return current
}

/** The columns of an occurrence row, in the order `eventRow` writes them (read with `dialect.jsonTuples`). */
export const EVENT_ROW_COLUMNS = { fp: 'text', exact: 'text', hash: 'text', ts: 'text', env: 'text', bstart: 'integer', bend: 'integer', ctx: 'text' } as const

/**
 * One occurrence row of `eventsJson`: an array in `EVENT_ROW_COLUMNS` order. Written by hand, not via
 * JSON.stringify: this runs per event. Hashes and times need no escaping. No day or severity: the SQL derives
 * them (substr of the time; the issue's severity, part of its identity).
 */
export function eventRow(r: EventRecord): string {
  // One native stringify makes a flat string; the template literal it replaced built a rope that every later
  // scan (measuring, joining) had to flatten first — about half the cost of a row (docs/ingestion.md).
  return JSON.stringify([r.fingerprint, r.exact, r.hash, r.occurredAt, r.environment, r.byteStart, r.byteEnd, r.preview])
}

/**
 * One issue row: identity and sample of `r`, and the first/last time of the events it stands for. A sample row
 * (the run's latest event of its issue) also carries the search signature of its text (migrations 0021 and
 * 0023; read where the schema keeps one: SQLite, MySQL); an issue first inserted by an earlier batch of the run
 * waits for it.
 */
function issueRow(r: EventRecord, first = r.occurredAt, last = r.occurredAt, sample = false): string {
  return JSON.stringify({
    fp: r.fingerprint,
    sev: r.severity,
    env: r.environment,
    title: r.title,
    cls: r.exceptionClass,
    frame: r.sourceFrame,
    first_ts: first,
    last_ts: last,
    msg: r.message,
    stack: r.stack,
    ctx: r.context,
    ltype: r.logType,
    channel: r.channel,
    module_id: r.moduleId,
    ...(sample ? signatureFields(textSignature({ title: r.title, message: r.message, exceptionClass: r.exceptionClass, sourceFrame: r.sourceFrame })) : {}),
  })
}

/** Issue rows of the latest samples, in JSON arrays of at most `maxBytes` each. */
function sampleChunks(records: readonly EventRecord[], maxBytes: number): string[] {
  const rows = records.map((record) => {
    const row = issueRow(record, record.occurredAt, record.occurredAt, true)
    if (rowSize(row) + 2 <= maxBytes) return row
    const shrunk = shrink(record, maxBytes)
    return issueRow(shrunk, shrunk.occurredAt, shrunk.occurredAt, true)
  })
  return packRows(rows, rows.map(rowSize), maxBytes)
}

function fingerprintList(fingerprints: Iterable<string>): string {
  let json = ''
  for (const fp of fingerprints) json += `${json ? ',' : ''}{"fp":"${fp}"}`
  return `[${json}]`
}

function serialise(records: readonly EventRecord[], rows: readonly string[], sizes: readonly number[], maxJsonBytes: number, samples: SampleBuffer): BatchPayload {
  const groups = new Map<string, { record: EventRecord; first: string; last: string }>()
  const touched = new Set<string>()
  let firstByte = Number.POSITIVE_INFINITY
  let lastByte = Number.NEGATIVE_INFINITY
  for (const r of records) {
    if (r.byteStart < firstByte) firstByte = r.byteStart
    if (r.byteStart > lastByte) lastByte = r.byteStart
    touched.add(r.fingerprint)
    if (samples.isStored(r.fingerprint)) continue
    const group = groups.get(r.fingerprint)
    // The sample is the latest event (reference §2.6), first/last seen span the batch's events.
    if (group === undefined) groups.set(r.fingerprint, { record: r, first: r.occurredAt, last: r.occurredAt })
    else {
      group.record = r
      if (r.occurredAt < group.first) group.first = r.occurredAt
      if (r.occurredAt > group.last) group.last = r.occurredAt
    }
  }
  const issueRows = [...groups.values()].map(({ record, first, last }) => issueRow(record, first, last))
  return {
    records,
    eventsJson: packRows(rows, sizes, maxJsonBytes),
    groupsJson: packRows(issueRows, issueRows.map(rowSize), maxJsonBytes),
    samplesJson: [],
    fingerprintsJson: fingerprintList(touched),
    firstByte: records.length > 0 ? firstByte : 0,
    lastByte: records.length > 0 ? lastByte : 0,
  }
}
