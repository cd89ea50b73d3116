import { describe, expect, it } from 'vitest'
import {
  customFingerprint,
  exactFingerprint,
  fileEventHash,
  groupFingerprint,
  httpEventHash,
  linearFingerprint,
  manualFingerprint,
  sha256Hex,
} from '../../../../worker/digest/grouping/fingerprint.ts'
import { analyzeEvent } from '../../../../worker/digest/analyze-event.ts'
import type { LogEvent } from '../../../../worker/digest/log-event.ts'
import { parseText } from '../parse-text.ts'

const fingerprintOf = (event: LogEvent, moduleId: number | null = null) => {
  const a = analyzeEvent(event)
  return groupFingerprint({
    moduleId,
    logType: event.logType,
    severity: event.severity,
    exceptionClass: a.exceptionClass,
    title: a.title,
    sourceFrame: a.sourceFrame,
  })
}

describe('sha256Hex', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ])('hashes %j', async (text, hex) => {
    expect(await sha256Hex(text)).toBe(hex)
  })
})

describe('groupFingerprint', () => {
  const events = parseText(
    [
      '[2026-01-01 10:00:00] production.ERROR: Order 123 failed for a@x.test {"request_id":"b0f4a4ed-3ae5-4f18-8e06-4b8d459162ae"}',
      '[2026-01-01 10:01:00] production.ERROR: Order 456 failed for c@d.test {"request_id":"1c5349eb-8530-4235-abca-43ceba04a990"}',
      '[2026-01-01 10:02:00] production.WARNING: Order 789 failed for e@f.test {"request_id":"1c5349eb-8530-4235-abca-43ceba04a991"}',
      '',
    ].join('\n'),
    'laravel.log',
  )

  it('hashes module|log_type|severity|class|normalize(title)|normalize(frame)', async () => {
    expect(await fingerprintOf(events[0]!)).toBe(await sha256Hex('unassigned|laravel|ERROR||order {n} failed for {email}|'))
    const key = { moduleId: 7, logType: 'laravel', severity: 'ERROR', exceptionClass: 'App\\X', title: 'T 1', sourceFrame: '/a.php:3' }
    expect(await groupFingerprint(key)).toBe(await sha256Hex('7|laravel|ERROR|App\\X|t {n}|/a.php:{line}'))
  })

  it('groups "Order 123 …" and "Order 456 …" together', async () => {
    expect(await fingerprintOf(events[0]!)).toBe(await fingerprintOf(events[1]!))
  })

  it('separates the same message at WARNING and at ERROR, and across modules', async () => {
    expect(await fingerprintOf(events[2]!)).not.toBe(await fingerprintOf(events[0]!))
    expect(await fingerprintOf(events[0]!, 3)).not.toBe(await fingerprintOf(events[0]!))
  })

  it('gives the same fingerprint whatever the stack depth when the culprit skips /vendor/', async () => {
    const body = (id: string, frames: string[]) =>
      `[2026-01-01 10:00:00] production.ERROR: SQLSTATE[23000]: Duplicate entry '${id}'\n[stacktrace]\n${frames.join('\n')}\n`
    const [deep] = parseText(
      body('inv-1', [
        '#0 /app/vendor/laravel/framework/src/Illuminate/Database/Connection.php(795): run()',
        '#1 /app/vendor/laravel/framework/src/Illuminate/Database/Connection.php(760): go()',
        '#2 /app/app/Services/InvoiceWriter.php(64): insert()',
      ]),
      'laravel.log',
    )
    const [shallow] = parseText(body('inv-2', ['#0 /app/app/Services/InvoiceWriter.php(64): insert()']), 'laravel.log')
    expect(await fingerprintOf(deep!)).toBe(await fingerprintOf(shallow!))
  })
})

describe('other fingerprints and hashes', () => {
  it('derives a custom fingerprint from module and value', async () => {
    expect(await customFingerprint(null, 'checkout')).toBe(await sha256Hex('custom|unassigned|checkout'))
    expect(await customFingerprint(4, 'checkout')).toBe(await sha256Hex('custom|4|checkout'))
  })

  it('makes a fresh random manual fingerprint each time', async () => {
    const [a, b] = await Promise.all([manualFingerprint(), manualFingerprint()])
    expect(a).toMatch(/^[0-9a-f]{64}$/)
    expect(a).not.toBe(b)
  })

  it('derives the Linear fingerprint from the issue id', async () => {
    expect(await linearFingerprint('abc-1')).toBe(await sha256Hex('linear|abc-1'))
  })

  it('derives the exact fingerprint from the group fingerprint and the normalised stack', async () => {
    expect(await exactFingerprint('fp', '#0 /app/A.php(12)')).toBe(await sha256Hex('fp|#{n} /app/a.php({n})'))
    expect(await exactFingerprint('fp', null)).toBe(await sha256Hex('fp|'))
  })

  it('hashes a file event from its six fields, a null environment as empty', async () => {
    const fields = { occurredAt: '2026-01-01 10:00:00', severity: 'ERROR', logType: 'laravel', channel: 'laravel.log', body: 'x' }
    expect(await fileEventHash({ ...fields, environment: 'production' })).toBe(
      await sha256Hex('2026-01-01 10:00:00|ERROR|production|laravel|laravel.log|x'),
    )
    expect(await fileEventHash({ ...fields, environment: null })).toBe(
      await sha256Hex('2026-01-01 10:00:00|ERROR||laravel|laravel.log|x'),
    )
  })

  it('hashes an HTTP event from time, severity, channel, body and byteStart', async () => {
    const event = { occurredAt: '2026-01-01 10:00:00', severity: 'ERROR', channel: 'http', body: 'x', byteStart: 3 }
    expect(await httpEventHash(event)).toBe(await sha256Hex('2026-01-01 10:00:00|ERROR|http|x|3'))
  })
})
