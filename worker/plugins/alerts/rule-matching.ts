import type { AlertRule } from '../../../shared/schemas/alerts.ts'

/** What a rule filters on (reference §4.2). */
export type RuleFilter = Pick<AlertRule, 'trigger_type' | 'severities' | 'module_id' | 'min_count' | 'spike_factor' | 'cooldown_minutes' | 'last_triggered_at'>

export interface CandidateIssue {
  readonly id: number
  readonly severity: string
  readonly title: string
  readonly count: number
  readonly module_id: number | null
}

/** An issue with its occurrences in the last 24 hours: `recent` in the last hour, `total` over all 24. */
export interface SpikeCandidate extends CandidateIssue {
  readonly recent: number
  readonly total: number
}

/** Whether a rule is still cooling down from its last delivered alert. */
export function coolingDown(rule: RuleFilter, now: Date): boolean {
  if (rule.last_triggered_at === null || rule.cooldown_minutes <= 0) return false
  const last = Date.parse(`${rule.last_triggered_at.replace(' ', 'T')}Z`)
  return Number.isFinite(last) && now.getTime() - last < rule.cooldown_minutes * 60_000
}

/** Severity, module and `count >= min_count` (new errors and reoccurrences). */
export function matchesFilter(rule: RuleFilter, issue: CandidateIssue): boolean {
  return (
    (rule.severities.length === 0 || (rule.severities as readonly string[]).includes(issue.severity)) &&
    (rule.module_id === null || rule.module_id === issue.module_id) &&
    issue.count >= rule.min_count
  )
}

/**
 * Reference §4.2's spike: `recent` (last hour) against `baseline` = the preceding 23 hours' occurrences / 23.
 * Fires when `recent >= max(1, min_count)` and either `recent >= spike_factor × baseline` (baseline > 0) or,
 * with no baseline, `recent >= max(2, min_count)`. Severity and module filter as for the other triggers.
 */
export function isSpiking(rule: RuleFilter, issue: SpikeCandidate): boolean {
  if (rule.severities.length > 0 && !(rule.severities as readonly string[]).includes(issue.severity)) return false
  if (rule.module_id !== null && rule.module_id !== issue.module_id) return false
  const baseline = (issue.total - issue.recent) / 23
  if (issue.recent < Math.max(1, rule.min_count)) return false
  return baseline > 0 ? issue.recent >= rule.spike_factor * baseline : issue.recent >= Math.max(2, rule.min_count)
}
