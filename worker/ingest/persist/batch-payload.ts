import { utf8Length } from '../utf8.ts'
import type { EventRecord } from './event-record.ts'

/**
 * One persistence batch, serialised: the JSON parameters its statements expand with `dialect.jsonRecords`
 * (one parameter per row source, because D1 binds at most 100 parameters per statement).
 */
export interface BatchPayload {
  readonly records: readonly EventRecord[]
  /** Occurrence rows, one per event. */
  readonly eventsJson: string
  /** Issue rows, one per fingerprint: the latest event's sample, first/last time of the batch's events. */
  readonly groupsJson: string
  /** `[{fp}]` of every issue the batch touched (the tag-rule pass). */
  readonly fingerprintsJson: string
  /** Smallest and largest `byte_start`: with the source file they bound the unique-index range the batch wrote. */
  readonly firstByte: number
  readonly lastByte: number
}

export interface BatchLimits {
  /**
   * Events per batch (config `ingestion.import_batch_events`). The reference commits every 1000 events; the
   * default here is 2000 because a batch has a fixed cost on D1 and measured ~15 % faster at 2000 (see
   * docs/ingestion.md "Throughput"). Either way a batch is one round trip, so 1000 events cost at most one.
   */
  readonly maxEvents: number
  /**
   * UTF-8 bytes per JSON parameter. D1 refuses strings over 1 MB; 800 KB leaves room for the rest of the
   * statement and for escaping differences between engines.
   */
  readonly maxJsonBytes: number
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxEvents: 2000, maxJsonBytes: 800_000 }

/**
 * Cuts records (in file order) into batches that respect both limits. The occurrence rows are serialised
 * once, up front, so a batch is cut on their exact byte size (an estimate that ran a few percent short made
 * the exact check halve nearly every full batch); the issue rows, one per fingerprint, are estimated, and a
 * batch whose issue rows still turn out too large is halved. A single event whose sample alone is too large
 * has its sample fields shortened.
 */
export function preparePayloads(records: readonly EventRecord[], limits: BatchLimits = DEFAULT_BATCH_LIMITS): BatchPayload[] {
  const payloads: BatchPayload[] = []
  const rows = records.map(eventRow)
  let start = 0
  let events = 2 // the array's brackets
  const seen = new Map<string, number>()
  let groups = 0
  const flush = (end: number) => {
    if (end > start) fit(records.slice(start, end), rows.slice(start, end), limits, payloads)
    start = end
    events = 2
    groups = 0
    seen.clear()
  }
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!
    const eventSize = utf8Length(rows[i]!) + 1
    const groupSize = 400 + record.title.length + record.message.length + (record.stack?.length ?? 0) + (record.context?.length ?? 0)
    const previous = seen.get(record.fingerprint) ?? 0
    const nextGroups = groups + Math.max(0, groupSize - previous)
    if (i > start && (i - start >= limits.maxEvents || events + eventSize > limits.maxJsonBytes || nextGroups > limits.maxJsonBytes)) {
      flush(i)
    }
    events += eventSize
    groups += Math.max(0, groupSize - (seen.get(record.fingerprint) ?? 0))
    seen.set(record.fingerprint, Math.max(previous, groupSize))
  }
  flush(records.length)
  return payloads
}

function fit(records: readonly EventRecord[], rows: readonly string[], limits: BatchLimits, out: BatchPayload[]): void {
  const payload = serialise(records, rows)
  if (utf8Length(payload.eventsJson) <= limits.maxJsonBytes && utf8Length(payload.groupsJson) <= limits.maxJsonBytes) {
    out.push(payload)
  } else if (records.length > 1) {
    const half = Math.ceil(records.length / 2)
    fit(records.slice(0, half), rows.slice(0, half), limits, out)
    fit(records.slice(half), rows.slice(half), limits, out)
  } else {
    const shrunk = shrink(records[0]!, limits.maxJsonBytes)
    out.push(serialise([shrunk], [eventRow(shrunk)]))
  }
}

/** Halves the longest sample field until the issue row fits (only for a pathological single event). */
function shrink(record: EventRecord, maxBytes: number): EventRecord {
  let current = record
  for (let round = 0; round < 40; round++) {
    const { groupsJson: groups, eventsJson: events } = serialise([current], [eventRow(current)])
    if (utf8Length(groups) <= maxBytes && utf8Length(events) <= maxBytes) return current
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
function eventRow(r: EventRecord): string {
  return `{"fp":"${r.fingerprint}","exact":"${r.exact}","hash":"${r.hash}","ts":"${r.occurredAt}","env":${JSON.stringify(r.environment)},"bstart":${r.byteStart},"bend":${r.byteEnd},"ctx":${JSON.stringify(r.preview)}}`
}

function serialise(records: readonly EventRecord[], rows: readonly string[]): BatchPayload {
  const groups = new Map<string, { record: EventRecord; first: string; last: string }>()
  let firstByte = Number.POSITIVE_INFINITY
  let lastByte = Number.NEGATIVE_INFINITY
  for (const r of records) {
    if (r.byteStart < firstByte) firstByte = r.byteStart
    if (r.byteStart > lastByte) lastByte = r.byteStart
    const group = groups.get(r.fingerprint)
    // The sample is always the latest event (reference §2.6), first/last seen span the batch's events.
    if (group === undefined) groups.set(r.fingerprint, { record: r, first: r.occurredAt, last: r.occurredAt })
    else {
      group.record = r
      if (r.occurredAt < group.first) group.first = r.occurredAt
      if (r.occurredAt > group.last) group.last = r.occurredAt
    }
  }
  const groupRows = [...groups.values()].map(({ record: r, first, last }) => ({
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
  }))
  return {
    records,
    eventsJson: `[${rows.join(',')}]`,
    groupsJson: JSON.stringify(groupRows),
    fingerprintsJson: JSON.stringify([...groups.keys()].map((fp) => ({ fp }))),
    firstByte,
    lastByte,
  }
}
