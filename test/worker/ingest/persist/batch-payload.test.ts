import { describe, expect, it } from 'vitest'
import { preparePayloads } from '../../../../worker/ingest/persist/batch-payload.ts'
import type { EventRecord } from '../../../../worker/ingest/persist/event-record.ts'

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

describe('preparePayloads', () => {
  it('cuts by event count and keeps one issue row per fingerprint: the latest sample, first/last time of the batch', () => {
    const records = Array.from({ length: 25 }, (_, i) => record(i, i % 2 ? 'odd' : 'even'))
    const payloads = preparePayloads(records, { maxEvents: 10, maxJsonBytes: 800_000 })
    expect(payloads.map((p) => p.records.length)).toEqual([10, 10, 5])
    expect(payloads.map((p) => [p.firstByte, p.lastByte])).toEqual([[0, 90], [100, 190], [200, 240]])
    const groups = JSON.parse(payloads[0]!.groupsJson)
    expect(groups.map((g: { fp: string; msg: string; first_ts: string; last_ts: string }) => [g.fp, g.msg, g.first_ts, g.last_ts])).toEqual([
      ['even', 'm8', '2026-01-01 10:00:00', '2026-01-01 10:00:08'],
      ['odd', 'm9', '2026-01-01 10:00:01', '2026-01-01 10:00:09'],
    ])
    expect(JSON.parse(payloads[0]!.fingerprintsJson)).toEqual([{ fp: 'even' }, { fp: 'odd' }])
    expect(JSON.parse(payloads[0]!.eventsJson)[0]).toEqual({ fp: 'even', exact: 'e', hash: 'h0', ts: '2026-01-01 10:00:00', env: 'production', bstart: 0, bend: 10, ctx: null })
  })

  it('cuts by the byte size of the JSON parameters', () => {
    const records = Array.from({ length: 10 }, (_, i) => record(i, `fp${i}`, { preview: 'é'.repeat(3000) }))
    const payloads = preparePayloads(records, { maxEvents: 1000, maxJsonBytes: 20_000 })
    expect(payloads.length).toBeGreaterThan(1)
    expect(payloads.flatMap((p) => p.records)).toEqual(records)
    for (const payload of payloads) expect(new TextEncoder().encode(payload.eventsJson).length).toBeLessThanOrEqual(20_000)
  })

  it('shortens the sample of a single event too large for one parameter', () => {
    const [payload] = preparePayloads([record(0, 'fp', { message: '🚀'.repeat(120_000), stack: 'x'.repeat(120_000) })], { maxEvents: 1000, maxJsonBytes: 100_000 })
    expect(new TextEncoder().encode(payload!.groupsJson).length).toBeLessThanOrEqual(100_000)
    expect(JSON.parse(payload!.groupsJson)[0].msg.startsWith('🚀🚀')).toBe(true)
  })
})
