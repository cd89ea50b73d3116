import { describe, expect, it } from 'vitest'
import { exactFingerprint, fileEventHash, groupFingerprint } from '../../../../worker/digest/grouping/fingerprint.ts'
import { normalize } from '../../../../worker/digest/grouping/normalize.ts'
import { analyzeEvent } from '../../../../worker/digest/analyze-event.ts'
import type { LogEvent } from '../../../../worker/digest/log-event.ts'
import { CONTEXT_PREVIEW_LIMIT, toEventRecords } from '../../../../worker/digest/persist/event-record.ts'

const event = (body: string, overrides: Partial<LogEvent> = {}): LogEvent => ({
  occurredAt: '2026-01-01 10:00:00',
  severity: 'ERROR',
  environment: 'production',
  body,
  context: null,
  byteStart: 0,
  byteEnd: body.length + 1,
  logType: 'laravel',
  ...overrides,
})

describe('toEventRecords', () => {
  it('gives the fingerprints and hashes of reference §2.5 (memoised by the normalised key)', async () => {
    const bodies = [
      'Order 123 failed for a@x.test {"id":"b0f4a4ed-3ae5-4f18-8e06-4b8d459162ae"}',
      'Order 456 failed for c@d.test {"id":"1c5349eb-8530-4235-abca-43ceba04a990"}',
      'RuntimeException: boom in /app/app/Jobs/Sync.php:57\n#0 /app/app/Jobs/Sync.php(57): run()\n#1 /app/vendor/x/y.php(9): go()',
    ]
    const events = bodies.map((body, i) => event(body, { byteStart: i * 100 }))
    const records = toEventRecords(events, { moduleId: 7, channel: 'laravel.log' })
    for (const [i, record] of records.entries()) {
      const analysis = analyzeEvent(events[i]!)
      const key = { moduleId: 7, logType: 'laravel', severity: 'ERROR', exceptionClass: analysis.exceptionClass, title: analysis.title, sourceFrame: analysis.sourceFrame }
      expect(record.fingerprint).toBe(await groupFingerprint(key))
      expect(record.exact).toBe(await exactFingerprint(record.fingerprint, analysis.stack))
      expect(record.hash).toBe(await fileEventHash({ ...events[i]!, channel: 'laravel.log' }))
    }
    expect(records[0]!.fingerprint).toBe(records[1]!.fingerprint)
    expect(records[2]!).toMatchObject({ exceptionClass: 'RuntimeException', sourceFrame: '/app/app/Jobs/Sync.php:57', moduleId: 7, channel: 'laravel.log' })
  })

  it('relies on normalize being idempotent', () => {
    for (const text of ['Order 123 at 2026-01-01 10:00:00 from 10.0.0.1 by a@b.test in /releases/42/x.php:12', 'UUID b0f4a4ed-3ae5-4f18-8e06-4b8d459162ae']) {
      expect(normalize(normalize(text))).toBe(normalize(text))
    }
  })

  it('caps samples at the message limit and previews at 12,000 characters', async () => {
    const context = JSON.stringify({ blob: 'y'.repeat(20_000) })
    const [record] = toEventRecords([event(`Huge ${'x'.repeat(200)} ${context}`)], { moduleId: null, channel: 'a.log' }, 100)
    expect(record!.message).toHaveLength(100)
    expect(record!.context).toHaveLength(100)
    expect(record!.preview).toHaveLength(CONTEXT_PREVIEW_LIMIT)
  })
})
