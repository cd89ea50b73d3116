import { describe, expect, it } from 'vitest'
import { preparePayloads, type BatchLimits } from '../../../../worker/digest/persist/batch-payload.ts'
import { SampleBuffer } from '../../../../worker/digest/persist/sample-buffer.ts'
import type { EventRecord } from '../../../../worker/digest/persist/event-record.ts'

const record = (i: number, fingerprint = 'fp', overrides: Partial<EventRecord> = {}): EventRecord => ({
  fingerprint,
  exact: 'e',
  hash: `h${i}`,
  occurredAt: `2026-01-01 10:00:${String(i % 60).padStart(2, '0')}`,
  severity: 'ERROR',
  environment: 'production',
  byteStart: i * 10,
  byteEnd: i * 10 + 10,
  preview: null,
  title: `t${i}`,
  exceptionClass: null,
  sourceFrame: null,
  message: `m${i}`,
  stack: null,
  context: null,
  logType: 'laravel',
  channel: 'a.log',
  moduleId: null,
  ...overrides,
})

const limits = (overrides: Partial<BatchLimits>): BatchLimits => ({ maxEvents: 1000, maxJsonBytes: 800_000, maxJsonParameters: 1, maxPendingSampleBytes: 2_400_000, ...overrides })
/** The rows of a payload's JSON parameters, in order. */
const rowsOf = (chunks: readonly string[]) => chunks.flatMap((chunk) => JSON.parse(chunk))
type IssueRow = { fp: string; msg: string; first_ts: string; last_ts: string }

describe('preparePayloads', () => {
  it('cuts by event count; issue rows only where the run has not stored the issue; the latest samples with the last batch', () => {
    const records = Array.from({ length: 25 }, (_, i) => record(i, i % 2 ? 'odd' : 'even'))
    const payloads = preparePayloads([...records, record(25, 'late')], limits({ maxEvents: 10 }))
    expect(payloads.map((p) => p.records.length)).toEqual([10, 10, 6])
    expect(payloads.map((p) => [p.firstByte, p.lastByte])).toEqual([[0, 90], [100, 190], [200, 250]])
    // The first batch inserts its issues with the batch's latest sample and first/last time.
    expect(rowsOf(payloads[0]!.groupsJson).map((g: IssueRow) => [g.fp, g.msg, g.first_ts, g.last_ts])).toEqual([
      ['even', 'm8', '2026-01-01 10:00:00', '2026-01-01 10:00:08'],
      ['odd', 'm9', '2026-01-01 10:00:01', '2026-01-01 10:00:09'],
    ])
    expect(payloads[1]!.groupsJson).toEqual([])
    // The last batch's sample rows cover its issues, the new one included, so it needs no insert rows.
    expect(payloads[2]!.groupsJson).toEqual([])
    // Samples wait for the run's last batch, which carries every touched issue's latest event.
    expect(payloads.slice(0, 2).map((p) => p.samplesJson)).toEqual([[], []])
    expect(payloads[2]!.samplesJson).toHaveLength(1)
    expect(JSON.parse(payloads[2]!.samplesJson[0]!).map((g: IssueRow) => [g.fp, g.msg])).toEqual([['even', 'm24'], ['odd', 'm23'], ['late', 'm25']])
    expect(JSON.parse(payloads[0]!.fingerprintsJson)).toEqual([{ fp: 'even' }, { fp: 'odd' }])
    expect(JSON.parse(payloads[2]!.fingerprintsJson)).toEqual([{ fp: 'even' }, { fp: 'odd' }, { fp: 'late' }])
    expect(rowsOf(payloads[0]!.eventsJson)[0]).toEqual(['even', 'e', 'h0', '2026-01-01 10:00:00', 'production', 0, 10, null])
  })

  it('writes pending samples early once they outgrow their limit, and not at all when the run is not final', () => {
    const samples = new SampleBuffer(2_000)
    const records = Array.from({ length: 6 }, (_, i) => record(i, `fp${i}`, { message: 'x'.repeat(300) }))
    const payloads = preparePayloads(records, limits({ maxEvents: 2 }), samples, false)
    // Each issue row counts ~700 units; the buffer passes 2,000 with the second batch and drains there.
    expect(payloads.map((p) => p.samplesJson.length)).toEqual([0, 1, 0])
    expect(JSON.parse(payloads[1]!.samplesJson[0]!).map((g: IssueRow) => g.fp)).toEqual(['fp0', 'fp1', 'fp2', 'fp3'])
    expect(samples.empty).toBe(false)
    const [last] = preparePayloads([], limits({}), samples, true)
    expect(last!.records).toEqual([])
    expect(JSON.parse(last!.samplesJson[0]!).map((g: IssueRow) => g.fp)).toEqual(['fp4', 'fp5'])
    expect(samples.empty).toBe(true)
  })

  it('splits the samples into parameters under the byte limit', () => {
    const records = Array.from({ length: 30 }, (_, i) => record(i, `fp${i}`, { message: 'é'.repeat(1000) }))
    const chunks = payloads(records, 10_000).flatMap((p) => p.samplesJson)
    expect(chunks.length).toBeGreaterThan(2)
    for (const chunk of chunks) expect(new TextEncoder().encode(chunk).length).toBeLessThanOrEqual(10_000)
    expect(chunks.flatMap((chunk) => JSON.parse(chunk).map((g: IssueRow) => g.fp))).toEqual(records.map((r) => r.fingerprint))
  })

  it('cuts by the byte size of the JSON parameters', () => {
    const records = Array.from({ length: 10 }, (_, i) => record(i, `fp${i}`, { preview: 'é'.repeat(3000) }))
    const cut = payloads(records, 20_000)
    expect(cut.length).toBeGreaterThan(1)
    expect(cut.flatMap((p) => p.records)).toEqual(records)
    for (const payload of cut) {
      expect(payload.eventsJson).toHaveLength(1)
      for (const json of [...payload.eventsJson, ...payload.groupsJson]) expect(new TextEncoder().encode(json).length).toBeLessThanOrEqual(20_000)
    }
  })

  it('packs a batch into several parameters of at most the byte limit each, in file order', () => {
    const records = Array.from({ length: 10 }, (_, i) => record(i, `fp${i}`, { preview: 'é'.repeat(3000) }))
    const cut = preparePayloads(records, limits({ maxJsonBytes: 20_000, maxJsonParameters: 3 }))
    // Each occurrence row is ~6 KB: three fit in a 20,000-byte array, nine in three arrays.
    expect(cut.map((p) => p.records.length)).toEqual([9, 1])
    expect(cut.map((p) => p.eventsJson.length)).toEqual([3, 1])
    expect(cut.flatMap((p) => rowsOf(p.eventsJson).map((row: unknown[]) => row[2]))).toEqual(records.map((r) => r.hash))
    for (const payload of cut) {
      expect(payload.groupsJson.length).toBeLessThanOrEqual(3)
      for (const json of [...payload.eventsJson, ...payload.groupsJson]) expect(new TextEncoder().encode(json).length).toBeLessThanOrEqual(20_000)
    }
    expect(cut.flatMap((p) => rowsOf(p.groupsJson).map((row: IssueRow) => row.fp))).toEqual(records.slice(0, 9).map((r) => r.fingerprint))
  })

  it('shortens the sample of a single event too large for one parameter', () => {
    const huge = record(0, 'fp', { message: '🚀'.repeat(120_000), stack: 'x'.repeat(120_000) })
    const [first] = preparePayloads([huge], limits({ maxJsonBytes: 100_000 }), undefined, false)
    expect(first!.groupsJson).toHaveLength(1)
    expect(new TextEncoder().encode(first!.groupsJson[0]!).length).toBeLessThanOrEqual(100_000)
    expect(JSON.parse(first!.groupsJson[0]!)[0].msg.startsWith('🚀🚀')).toBe(true)
    const [payload] = payloads([huge], 100_000)
    expect(new TextEncoder().encode(payload!.samplesJson[0]!).length).toBeLessThanOrEqual(100_000)
    expect(JSON.parse(payload!.samplesJson[0]!)[0].msg.startsWith('🚀🚀')).toBe(true)
  })
})

function payloads(records: readonly EventRecord[], maxJsonBytes: number) {
  return preparePayloads(records, limits({ maxJsonBytes }))
}
