import { describe, expect, it } from 'vitest'
import { coolingDown, isSpiking, matchesFilter, type RuleFilter } from '../../../../worker/plugins/alerts/rule-matching.ts'

const rule = (overrides: Partial<RuleFilter> = {}): RuleFilter => ({
  trigger_type: 'spike',
  severities: [],
  module_id: null,
  min_count: 1,
  spike_factor: 3,
  cooldown_minutes: 60,
  last_triggered_at: null,
  ...overrides,
})
const issue = (recent: number, total: number, overrides = {}) => ({ id: 1, severity: 'ERROR', title: 't', count: total, module_id: null, recent, total, ...overrides })

describe('isSpiking (reference §4.2)', () => {
  it('compares the last hour with the preceding 23 hours divided by 23', () => {
    expect(isSpiking(rule(), issue(3, 3 + 23))).toBe(true) // baseline 1, 3 ≥ 3 × 1
    expect(isSpiking(rule(), issue(2, 2 + 23))).toBe(false)
    expect(isSpiking(rule({ spike_factor: 1.5 }), issue(3, 3 + 46))).toBe(true) // baseline 2, 3 ≥ 1.5 × 2
    expect(isSpiking(rule({ spike_factor: 1.5 }), issue(2, 2 + 46))).toBe(false)
    expect(isSpiking(rule(), issue(1, 1 + 1))).toBe(true) // baseline 1/23: 1 ≥ 3/23
  })

  it('without a baseline needs at least max(2, min_count) in the hour, and always at least min_count', () => {
    expect(isSpiking(rule(), issue(1, 1))).toBe(false)
    expect(isSpiking(rule(), issue(2, 2))).toBe(true)
    expect(isSpiking(rule({ min_count: 5 }), issue(4, 4))).toBe(false)
    expect(isSpiking(rule({ min_count: 5 }), issue(5, 5))).toBe(true)
    expect(isSpiking(rule({ min_count: 5 }), issue(4, 4 + 1))).toBe(false) // a baseline does not lower min_count
  })

  it('filters by severity and module', () => {
    expect(isSpiking(rule({ severities: ['CRITICAL'] }), issue(5, 5))).toBe(false)
    expect(isSpiking(rule({ severities: ['CRITICAL', 'ERROR'] }), issue(5, 5))).toBe(true)
    expect(isSpiking(rule({ module_id: 2 }), issue(5, 5, { module_id: 3 }))).toBe(false)
    expect(isSpiking(rule({ module_id: 2 }), issue(5, 5, { module_id: 2 }))).toBe(true)
  })
})

describe('matchesFilter and coolingDown', () => {
  it('keeps issues of the listed severities, module and at least min_count occurrences', () => {
    expect(matchesFilter(rule({ min_count: 2 }), issue(0, 1))).toBe(false)
    expect(matchesFilter(rule({ min_count: 2 }), issue(0, 2))).toBe(true)
    expect(matchesFilter(rule({ severities: ['WARNING'] }), issue(0, 9))).toBe(false)
  })

  it('cools down for cooldown_minutes after the last delivered alert', () => {
    const now = new Date('2026-11-26T12:00:00Z')
    expect(coolingDown(rule({ last_triggered_at: '2026-11-26 11:00:01' }), now)).toBe(true)
    expect(coolingDown(rule({ last_triggered_at: '2026-11-26 11:00:00' }), now)).toBe(false)
    expect(coolingDown(rule({ last_triggered_at: '2026-11-26 11:59:59', cooldown_minutes: 0 }), now)).toBe(false)
    expect(coolingDown(rule(), now)).toBe(false)
  })
})
