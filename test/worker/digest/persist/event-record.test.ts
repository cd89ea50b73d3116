import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { normalize } from '../../../../worker/digest/grouping/normalize.ts'
import type { LogEvent } from '../../../../worker/digest/log-event.ts'
import { CONTEXT_PREVIEW_LIMIT, toEventRecords, type EventRecord } from '../../../../worker/digest/persist/event-record.ts'
import { parseText } from '../parse-text.ts'

/** The formulas of reference §2.5, written out independently of the worker's hashing. */
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

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

const recordOf = (logEvent: LogEvent, moduleId: number | null = null): EventRecord => toEventRecords([logEvent], { moduleId, channel: 'laravel.log' })[0]!

describe('toEventRecords: fingerprints and hashes (reference §2.5)', () => {
  it('hashes module|log_type|severity|class|normalize(title)|normalize(frame), the stack and the six event fields', () => {
    const bodies = [
      'Order 123 failed for a@x.test {"id":"b0f4a4ed-3ae5-4f18-8e06-4b8d459162ae"}',
      'RuntimeException: boom in /app/app/Jobs/Sync.php:57\n#0 /app/app/Jobs/Sync.php(57): run()\n#1 /app/vendor/x/y.php(9): go()',
    ]
    const [plain, thrown] = toEventRecords(
      bodies.map((body, i) => event(body, { byteStart: i * 100, environment: i === 0 ? null : 'production' })),
      { moduleId: 7, channel: 'laravel.log' },
    )
    expect(plain!.fingerprint).toBe(sha256('7|laravel|ERROR||order {n} failed for {email}|'))
    expect(plain!.exact).toBe(sha256(`${plain!.fingerprint}|`))
    // A null environment joins as '', like PHP's implode.
    expect(plain!.hash).toBe(sha256(`2026-01-01 10:00:00|ERROR||laravel|laravel.log|${bodies[0]}`))
    expect(thrown).toMatchObject({ exceptionClass: 'RuntimeException', sourceFrame: '/app/app/Jobs/Sync.php:57', moduleId: 7, channel: 'laravel.log' })
    expect(thrown!.fingerprint).toBe(sha256(`7|laravel|ERROR|RuntimeException|${normalize(thrown!.title)}|${normalize('/app/app/Jobs/Sync.php:57')}`))
    expect(thrown!.exact).toBe(sha256(`${thrown!.fingerprint}|${normalize(thrown!.stack!)}`))
    expect(thrown!.hash).toBe(sha256(`2026-01-01 10:00:00|ERROR|production|laravel|laravel.log|${bodies[1]}`))
    // Without a module the key says so.
    expect(recordOf(event(bodies[0]!)).fingerprint).toBe(sha256('unassigned|laravel|ERROR||order {n} failed for {email}|'))
  })

  const events = parseText(
    [
      '[2026-01-01 10:00:00] production.ERROR: Order 123 failed for a@x.test {"request_id":"b0f4a4ed-3ae5-4f18-8e06-4b8d459162ae"}',
      '[2026-01-01 10:01:00] production.ERROR: Order 456 failed for c@d.test {"request_id":"1c5349eb-8530-4235-abca-43ceba04a990"}',
      '[2026-01-01 10:02:00] production.WARNING: Order 789 failed for e@f.test {"request_id":"1c5349eb-8530-4235-abca-43ceba04a991"}',
      '',
    ].join('\n'),
    'laravel.log',
  )

  it('groups "Order 123 …" and "Order 456 …" together', () => {
    expect(recordOf(events[0]!).fingerprint).toBe(recordOf(events[1]!).fingerprint)
  })

  it('separates the same message at WARNING and at ERROR, and across modules', () => {
    expect(recordOf(events[2]!).fingerprint).not.toBe(recordOf(events[0]!).fingerprint)
    expect(recordOf(events[0]!, 3).fingerprint).not.toBe(recordOf(events[0]!).fingerprint)
  })

  it('gives the same fingerprint whatever the stack depth when the culprit skips /vendor/', () => {
    const body = (id: string, frames: string[]) => `[2026-01-01 10:00:00] production.ERROR: SQLSTATE[23000]: Duplicate entry '${id}'\n[stacktrace]\n${frames.join('\n')}\n`
    const [deep] = parseText(
      body('inv-1', [
        '#0 /app/vendor/laravel/framework/src/Illuminate/Database/Connection.php(795): run()',
        '#1 /app/vendor/laravel/framework/src/Illuminate/Database/Connection.php(760): go()',
        '#2 /app/app/Services/InvoiceWriter.php(64): insert()',
      ]),
      'laravel.log',
    )
    const [shallow] = parseText(body('inv-2', ['#0 /app/app/Services/InvoiceWriter.php(64): insert()']), 'laravel.log')
    expect(recordOf(deep!).fingerprint).toBe(recordOf(shallow!).fingerprint)
    expect(recordOf(deep!).exact).not.toBe(recordOf(shallow!).exact)
  })

  it('relies on normalize being idempotent', () => {
    for (const text of ['Order 123 at 2026-01-01 10:00:00 from 10.0.0.1 by a@b.test in /releases/42/x.php:12', 'UUID b0f4a4ed-3ae5-4f18-8e06-4b8d459162ae']) {
      expect(normalize(normalize(text))).toBe(normalize(text))
    }
  })

  it('caps samples at the message limit and previews at 12,000 characters', () => {
    const context = JSON.stringify({ blob: 'y'.repeat(20_000) })
    const [record] = toEventRecords([event(`Huge ${'x'.repeat(200)} ${context}`)], { moduleId: null, channel: 'a.log' }, 100)
    expect(record!.message).toHaveLength(100)
    expect(record!.context).toHaveLength(100)
    expect(record!.preview).toHaveLength(CONTEXT_PREVIEW_LIMIT)
  })
})
