import { describe, expect, it } from 'vitest'
import { epochToTimestamp, formatUtc, normalizeTimestamp, parseTimestamp } from '../../../worker/digest/timestamps.ts'

describe('parseTimestamp', () => {
  it.each([
    // bare times are kept as written (assumed UTC); fractions dropped
    ['2026-01-01 10:15:30', '2026-01-01 10:15:30'],
    ['2026-01-01T10:15:30', '2026-01-01 10:15:30'],
    ['2026-01-01 10:15:30.123456', '2026-01-01 10:15:30'],
    ['2026/01/01 10:15:30', '2026-01-01 10:15:30'],
    ['2026-01-01', '2026-01-01 00:00:00'],
    ['2026-01-01 10:15', '2026-01-01 10:15:00'],
    // offsets are converted to UTC
    ['2026-08-20T10:15:30-07:00', '2026-08-20 17:15:30'],
    ['2026-01-01T10:15:30+10:00', '2026-01-01 00:15:30'],
    ['2026-01-01T10:15:30.5Z', '2026-01-01 10:15:30'],
    ['2026-01-01 10:15:30 +0200', '2026-01-01 08:15:30'],
    ['2026-01-01 10:15:30 UTC', '2026-01-01 10:15:30'],
    ['2026-01-01 10:15:30 PST', '2026-01-01 18:15:30'],
    // nginx / CLF always carries an offset
    ['01/Jan/2026:10:15:30 +1000', '2026-01-01 00:15:30'],
    ['01/Jan/2026:10:15:30 -0700', '2026-01-01 17:15:30'],
    ['01/Jan/2026:10:15:30 +0000', '2026-01-01 10:15:30'],
    ['01/Jan/2026:01:00:00 +1000', '2025-12-31 15:00:00'],
    ['10/Oct/2000:13:55:36 -0700', '2000-10-10 20:55:36'],
    // RFC 2822 and ctime/Apache
    ['Tue, 20 Aug 2026 10:15:30 +0200', '2026-08-20 08:15:30'],
    ['20 Aug 2026 10:15:30 GMT', '2026-08-20 10:15:30'],
    ['Thu Aug 20 10:15:30.123456 2026', '2026-08-20 10:15:30'],
    // calendar overflow rolls over as PHP's parser does
    ['2026-02-30 10:00:00', '2026-03-02 10:00:00'],
  ])('reads %j as %s', (input, expected) => {
    expect(parseTimestamp(input)).toBe(expected)
  })

  it.each(['', 'worker-1', 'yesterday', '2026-13-01 10:00:00', '2026-01-01 10:15:30 Mars/Olympus', '12345'])(
    'rejects %j',
    (input) => {
      expect(parseTimestamp(input)).toBeNull()
    },
  )
})

describe('normalizeTimestamp', () => {
  it('falls back to the given now for unparseable text', () => {
    expect(normalizeTimestamp('no time here', '2030-01-01 00:00:00')).toBe('2030-01-01 00:00:00')
    expect(normalizeTimestamp('2026-01-01T00:00:00Z', '2030-01-01 00:00:00')).toBe('2026-01-01 00:00:00')
  })
})

describe('epochToTimestamp', () => {
  it.each([
    [1755684930, '2025-08-20 10:15:30'],
    [1755684930.9, '2025-08-20 10:15:30'],
    [1755684930123, '2025-08-20 10:15:30'],
    [1755684930123456, '2025-08-20 10:15:30'],
    [1755684930123456789, '2025-08-20 10:15:30'],
    [0, '1970-01-01 00:00:00'],
  ])('reads %d as %s', (epoch, expected) => {
    expect(epochToTimestamp(epoch)).toBe(expected)
  })

  it('rejects non-finite numbers', () => {
    expect(epochToTimestamp(Number.NaN)).toBeNull()
    expect(epochToTimestamp(Number.POSITIVE_INFINITY)).toBeNull()
  })
})

describe('formatUtc', () => {
  it('formats epoch milliseconds as YYYY-MM-DD HH:MM:SS', () => {
    expect(formatUtc(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02 03:04:05')
    expect(formatUtc(Number.NaN)).toBeNull()
  })
})
