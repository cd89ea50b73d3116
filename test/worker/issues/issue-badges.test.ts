import { describe, expect, it } from 'vitest'
import { issueBadges } from '../../../worker/issues/issue-badges.ts'
import { toTrend, trendWindow } from '../../../worker/issues/issue-trend.ts'

const NOW = new Date('2026-03-15T12:00:00Z')
/** A 14-day trend whose last 8 days are `week` (7 days) then `today`. */
const trend = (week: number[], today: number) => [...Array.from({ length: 6 }, () => 0), ...week, today]
const open = { first_seen: '2026-03-01 00:00:00', status: 'open' as const }

describe('issue badges (docs/api.md "Issues")', () => {
  it('new: first seen at most 24 hours before now', () => {
    expect(issueBadges({ ...open, first_seen: '2026-03-14 12:00:00' }, trend([], 0), NOW)).toEqual(['new'])
    expect(issueBadges({ ...open, first_seen: '2026-03-14 11:59:59' }, trend([], 0), NOW)).toEqual([])
  })

  it('regressed: status reoccurred only', () => {
    expect(issueBadges({ ...open, status: 'reoccurred' }, trend([], 0), NOW)).toEqual(['regressed'])
    expect(issueBadges({ ...open, status: 'fixed' }, trend([], 0), NOW)).toEqual([])
  })

  it('escalating: today ≥ 10 and ≥ 3 × the average of the 7 days before', () => {
    const week = (perDay: number) => Array.from({ length: 7 }, () => perDay)
    expect(issueBadges(open, trend(week(0), 10), NOW)).toEqual(['escalating'])
    expect(issueBadges(open, trend(week(0), 9), NOW)).toEqual([])
    expect(issueBadges(open, trend(week(4), 12), NOW)).toEqual(['escalating'])
    expect(issueBadges(open, trend(week(4), 11), NOW)).toEqual([])
    // Days older than the week before today do not count towards the average.
    expect(issueBadges(open, [100, 100, 100, 100, 100, 100, 0, 0, 0, 0, 0, 0, 0, 10], NOW)).toEqual(['escalating'])
  })

  it('several badges in their fixed order', () => {
    expect(issueBadges({ first_seen: '2026-03-15 01:00:00', status: 'reoccurred' }, trend([], 30), NOW)).toEqual(['new', 'regressed', 'escalating'])
  })
})

describe('trend window', () => {
  it('is 14 UTC days ending today, and fills days without a rollup row with 0', () => {
    const window = trendWindow(new Date('2026-03-01T23:59:59Z'))
    expect(window.days).toHaveLength(14)
    expect(window.since).toBe('2026-02-16')
    expect(window.today).toBe('2026-03-01')
    expect(toTrend('[{"day":"2026-02-16","count":2},{"day":"2026-03-01","count":"5"}]', window)).toEqual([2, ...Array.from({ length: 12 }, () => 0), 5])
    expect(toTrend(null, window)).toEqual(Array.from({ length: 14 }, () => 0))
  })
})
