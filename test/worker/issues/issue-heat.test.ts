import { describe, expect, it } from 'vitest'
import { SEVERITY_RANK_SQL } from '../../../drivers/migrations/sqlite/0013-issue-priority.ts'
import { SEVERITIES } from '../../../shared/constants.ts'
import { HEAT_EPOCH, heatParameterJson, heatWeight, heatWeightsJson } from '../../../worker/issues/issue-heat.ts'

describe('issue heat weights (worker/issues/issue-heat.ts)', () => {
  it('doubles every 7 days from 1 on the epoch, halves going back', () => {
    expect(heatWeight(HEAT_EPOCH)).toBe(1)
    expect(heatWeight('2025-01-08')).toBe(2)
    expect(heatWeight('2025-01-29')).toBe(16)
    expect(heatWeight('2024-12-25')).toBe(0.5)
    expect(heatWeight('2025-01-02')).toBeCloseTo(2 ** (1 / 7), 15)
  })

  it('ranks like the decayed count at any moment: ratios depend only on the days between', () => {
    // 8 events 3 weeks before today weigh exactly as 1 event today, whichever today is.
    for (const [old, today] of [['2025-03-01', '2025-03-22'], ['2026-06-10', '2026-07-01']] as const) {
      expect(8 * heatWeight(old)).toBeCloseTo(heatWeight(today), 10)
      expect(9 * heatWeight(old)).toBeGreaterThan(heatWeight(today))
    }
  })

  it('stays finite through 2043 (the overflow that needs a rebase is ~19.6 years after the epoch)', () => {
    expect(Number.isFinite(heatWeight('2043-12-31'))).toBe(true)
    expect(heatWeight('2044-12-31')).toBe(Infinity)
  })

  it('rejects anything that is not a day', () => {
    expect(() => heatWeight('2025-13-45')).toThrow(RangeError)
    expect(() => heatWeight('yesterday')).toThrow(RangeError)
  })

  it('one [day, weight] pair per distinct day of the timestamps, in first-seen order', () => {
    const json = heatWeightsJson(['2025-01-08 10:00:00', '2025-01-01 00:00:01', '2025-01-08 23:59:59'])
    expect(JSON.parse(json)).toEqual([
      ['2025-01-08', 2],
      ['2025-01-01', 1],
    ])
    expect(heatWeightsJson([])).toBe('[]')
    // Not a day: no pair (the digest stores the occurrence without heat) rather than a failed batch.
    expect(heatWeightsJson(['garbage', '2025-13-45 00:00:00', '2025-01-01 00:00:00'])).toBe('[["2025-01-01",1e+0]]')
  })

  it('writes every weight with an exponent, so SQLite reads a double, never an integer that overflows past 2^63', () => {
    expect(heatWeightsJson(['2025-01-08 10:00:00'])).toBe('[["2025-01-08",2e+0]]')
    // 2^70 (2026-05-06): JSON.stringify would write 1180591620717411300000.
    expect(heatWeightsJson(['2026-05-06 00:00:00'])).toBe(`[["2026-05-06",${(2 ** 70).toExponential()}]]`)
    expect(heatWeightsJson(['2026-05-06 00:00:00'])).not.toContain('1180591620717411300000')
    expect(JSON.parse(heatParameterJson(2 ** 70))).toEqual([[2 ** 70]])
    expect(heatParameterJson(0)).toBe('[[0e+0]]')
  })

  it('severity_rank (migration 0013) is the SEVERITIES order, 8 for anything else', () => {
    const cases = SEVERITIES.map((level, index) => `WHEN '${level}' THEN ${index}`).join(' ')
    expect(SEVERITY_RANK_SQL).toBe(`CASE severity ${cases} ELSE ${SEVERITIES.length} END`)
  })
})
