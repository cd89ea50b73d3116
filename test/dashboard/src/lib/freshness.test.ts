import { describe, expect, it } from 'vitest'
import { formatAge, formatHours, freshness } from '../../../../dashboard/src/lib/freshness.ts'
import { hasEvents, trendDays } from '../../../../dashboard/src/lib/trend-days.ts'
import type { Summary } from '../../../../shared/api.ts'

const NOW = Date.parse('2026-11-26T12:00:00Z')

describe('freshness (issue 17 item 10)', () => {
  it('is stale only past the configured while, and never without any event', () => {
    expect(freshness('2026-11-26 11:00:00', 1, NOW)).toEqual({ ageMs: 3_600_000, stale: false })
    expect(freshness('2026-11-26 10:59:59', 1, NOW)).toEqual({ ageMs: 3_601_000, stale: true })
    expect(freshness('2026-11-25 12:00:01', 24, NOW).stale).toBe(false)
    expect(freshness('2026-11-22 12:00:00', 24, NOW).stale).toBe(true)
    expect(freshness(null, 1, NOW)).toEqual({ ageMs: null, stale: false })
    // A clock a little behind the server's is not "negative age".
    expect(freshness('2026-11-26 12:00:30', 1, NOW)).toEqual({ ageMs: 0, stale: false })
  })

  it('states the while in days when it is whole days', () => {
    expect([formatHours(1), formatHours(24), formatHours(36), formatHours(168)]).toEqual(['1 h', '1 d', '36 h', '7 d'])
    // The age: hours for the first two days, so "for 30 h (longer than 1 d)" never reads "for 1 d (longer than 1 d)".
    expect([formatAge(59 * 60_000), formatAge(30 * 3_600_000), formatAge(47.9 * 3_600_000), formatAge(48 * 3_600_000), formatAge(100 * 3_600_000)]).toEqual(['0 h', '30 h', '47 h', '2 d', '4 d'])
  })
})

describe('trendDays', () => {
  const summary = (trend: Summary['trend'], daily: Summary['daily_severity'] = []): Summary => ({
    total: { groups_count: 0, occurrences: 0, last_seen: null, last_event: null },
    severity: [], status: [], types: [], trend, daily_severity: daily, files: [], modules: [],
    dashboard: { stale_after_hours: 24 },
  })

  it('ends today (UTC) whatever the newest day with data, zero-filled, errors from ERROR and worse', () => {
    const days = trendDays(summary([{ day: '2026-11-20', count: 5 }, { day: '2026-09-01', count: 9 }], [
      { day: '2026-11-20', severity: 'ERROR', count: 2 },
      { day: '2026-11-20', severity: 'CRITICAL', count: 1 },
      { day: '2026-11-20', severity: 'WARNING', count: 2 },
    ]), NOW)
    expect(days.days).toHaveLength(30)
    expect(days.days[0]).toBe('2026-10-28')
    expect(days.days.at(-1)).toBe('2026-11-26')
    expect(days.events[days.days.indexOf('2026-11-20')]).toBe(5)
    expect(days.errors[days.days.indexOf('2026-11-20')]).toBe(3)
    expect(days.events.reduce((a, b) => a + b, 0)).toBe(5)
    expect(hasEvents(days)).toBe(true)
  })

  it('has no events when the data is older than the window', () => {
    const days = trendDays(summary([{ day: '2026-08-20', count: 10 }]), NOW)
    expect(days.days.at(-1)).toBe('2026-11-26')
    expect(hasEvents(days)).toBe(false)
  })
})
