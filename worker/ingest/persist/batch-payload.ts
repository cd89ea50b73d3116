import { utf8Length } from '../utf8.ts'
import type { EventRecord } from './event-record.ts'
import { SampleBuffer, sampleSize } from './sample-buffer.ts'

/**
 * One persistence batch, serialised: the JSON parameters its statements expand with `dialect.jsonRecords`
 * (one parameter per row source, because D1 binds at most 100 parameters per statement).
 */
export interface BatchPayload {
  readonly records: readonly EventRecord[]
  /** Occurrence rows, one per event. */
  readonly eventsJson: string
  /**
   * Issue rows for the fingerprints no earlier batch of the run stored, one per fingerprint: the batch's latest
   * event and the first/last time of its events. The batch inserts those that are new issues. Empty when the
   * batch carries samples, whose rows cover every issue it touches.
   */
  readonly groupsJson: string
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
   * default here is 2000 because a batch has a fixed cost on D1 (see docs/ingestion.md "Throughput"). Either
   * way a batch is one round trip, so 1000 events cost at most one.
   */
  readonly maxEvents: number
  /**
   * UTF-8 bytes per JSON parameter. D1 refuses strings over 1 MB; 800 KB leaves room for the rest of the
   * statement and for escaping differences between engines.
   */
  readonly maxJsonBytes: number
  /** Pending samples a run holds before writing them with the next batch (`SampleBuffer`): three parameters. */
  readonly maxPendingSampleBytes: number
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxEvents: 2000, maxJsonBytes: 800_000, maxPendingSampleBytes: 2_400_000 }

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
    payloads.push(...serialiseBatch(records.slice(start, end), rows.slice(start, end), limits, samples, final && end === records.length))
    start = end
  }
  if (final && records.length === 0 && !samples.empty) payloads.push(...serialiseBatch([], [], limits, samples, true))
  return payloads
}

/**
 * Where the batch starting at `start` ends: the first record that would break a limit (event count, the
 * occurrence rows' exact bytes, or the estimated issue rows of fingerprints the run has not stored), or
 * `records.length` when none does — a batch that may still grow.
 */
export function batchEnd(records: readonly EventRecord[], sizes: readonly number[], start: number, limits: BatchLimits, samples: SampleBuffer): number {
  let events = 2 // the array's brackets
  let groups = 2
  const seen = new Map<string, number>()
  for (let i = start; i < records.length; i++) {
    const record = records[i]!
    const groupSize = samples.isStored(record.fingerprint) ? 0 : sampleSize(record)
    const previous = seen.get(record.fingerprint) ?? 0
    const nextGroups = groups + Math.max(0, groupSize - previous)
    if (i > start && (i - start >= limits.maxEvents || events + sizes[i]! > limits.maxJsonBytes || nextGroups > limits.maxJsonBytes)) return i
    events += sizes[i]!
    groups = nextGroups
    seen.set(record.fingerprint, Math.max(previous, groupSize))
  }
  return records.length
}

/**
 * Serialises one batch cut by `batchEnd`, halving it when its issue rows turn out larger than estimated, and
 * records it in the run's samples. With `final`, or once the pending samples outgrow their limit, the last
 * payload also carries every pending sample.
 */
export function serialiseBatch(records: readonly EventRecord[], rows: readonly string[], limits: BatchLimits, samples: SampleBuffer, final: boolean): BatchPayload[] {
  const out: BatchPayload[] = []
  if (records.length > 0) fit(records, rows, limits, samples, out)
  if ((final || samples.full) && !samples.empty) {
    const last = out.pop() ?? serialise([], [], samples)
    const drained = samples.drain()
    const fingerprints = new Set(last.records.map((r) => r.fingerprint))
    for (const record of drained) fingerprints.add(record.fingerprint)
    // The sample rows cover every issue of the batch, so they also insert its new ones (no `groupsJson`).
    out.push({ ...last, groupsJson: '[]', samplesJson: sampleChunks(drained, limits.maxJsonBytes), fingerprintsJson: fingerprintList(fingerprints) })
  }
  return out
}

/** The UTF-8 size of one occurrence row plus its comma. */
export function rowSize(row: string): number {
  return utf8Length(row) + 1
}

function fit(records: readonly EventRecord[], rows: readonly string[], limits: BatchLimits, samples: SampleBuffer, out: BatchPayload[]): void {
  const payload = serialise(records, rows, samples)
  // Occurrence rows are cut on their exact size, so only the issue rows (estimated) need measuring here.
  if (records.length === 1 ? fits(payload, limits.maxJsonBytes) : utf8Length(payload.groupsJson) <= limits.maxJsonBytes) {
    commit(payload, samples, out)
  } else if (records.length > 1) {
    const half = Math.ceil(records.length / 2)
    fit(records.slice(0, half), rows.slice(0, half), limits, samples, out)
    fit(records.slice(half), rows.slice(half), limits, samples, out)
  } else {
    const shrunk = shrink(records[0]!, limits.maxJsonBytes)
    commit(serialise([shrunk], [eventRow(shrunk)], samples), samples, out)
  }
}

function fits(payload: BatchPayload, maxBytes: number): boolean {
  return utf8Length(payload.eventsJson) <= maxBytes && utf8Length(payload.groupsJson) <= maxBytes
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
    if (utf8Length(issueRow(current)) + 2 <= maxBytes && utf8Length(eventRow(current)) + 2 <= maxBytes) return current
    const fields = (['message', 'stack', 'context', 'preview'] as const).filter((field) => (current[field]?.length ?? 0) > 0)
    const longest = fields.sort((a, b) => (current[b]?.length ?? 0) - (current[a]?.length ?? 0))[0]
    if (longest === undefined) return current
    const value = current[longest]!
    current = { ...current, [longest]: value.slice(0, Math.floor(value.length / 2)) }
  }
  return current
}

/**
 * One occurrence row of `eventsJson`. Written by hand, not via objects + JSON.stringify: this runs per event.
 * Hashes and times need no escaping. No day or severity: the SQL derives them (substr of the time; the
 * issue's severity, part of its identity).
 */
export function eventRow(r: EventRecord): string {
  return `{"fp":"${r.fingerprint}","exact":"${r.exact}","hash":"${r.hash}","ts":"${r.occurredAt}","env":${JSON.stringify(r.environment)},"bstart":${r.byteStart},"bend":${r.byteEnd},"ctx":${JSON.stringify(r.preview)}}`
}

/** One issue row: identity and sample of `r`, and the first/last time of the events it stands for. */
function issueRow(r: EventRecord, first = r.occurredAt, last = r.occurredAt): string {
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
  })
}

/** Issue rows of the latest samples, in JSON arrays of at most `maxBytes` each. */
function sampleChunks(records: readonly EventRecord[], maxBytes: number): string[] {
  const chunks: string[] = []
  let rows: string[] = []
  let bytes = 2
  for (const record of records) {
    let row = issueRow(record)
    let size = utf8Length(row) + 1
    if (size + 2 > maxBytes) {
      row = issueRow(shrink(record, maxBytes))
      size = utf8Length(row) + 1
    }
    if (rows.length > 0 && bytes + size > maxBytes) {
      chunks.push(`[${rows.join(',')}]`)
      rows = []
      bytes = 2
    }
    rows.push(row)
    bytes += size
  }
  if (rows.length > 0) chunks.push(`[${rows.join(',')}]`)
  return chunks
}

function fingerprintList(fingerprints: Iterable<string>): string {
  let json = ''
  for (const fp of fingerprints) json += `${json ? ',' : ''}{"fp":"${fp}"}`
  return `[${json}]`
}

function serialise(records: readonly EventRecord[], rows: readonly string[], samples: SampleBuffer): BatchPayload {
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
  return {
    records,
    eventsJson: `[${rows.join(',')}]`,
    groupsJson: `[${[...groups.values()].map(({ record, first, last }) => issueRow(record, first, last)).join(',')}]`,
    samplesJson: [],
    fingerprintsJson: fingerprintList(touched),
    firstByte: records.length > 0 ? firstByte : 0,
    lastByte: records.length > 0 ? lastByte : 0,
  }
}
