import { SEVERITIES, type Severity } from '../../../shared/constants.ts'
import type { AlertTrigger } from '../../../shared/schemas/alerts.ts'
import type { RuleFilter } from './rule-matching.ts'

/** A rule row's filter fields (severities stored as a JSON array). */
export function toRuleFilter(rule: {
  readonly trigger_type: AlertTrigger
  readonly severities: string
  readonly module_id: number | null
  readonly min_count: number
  readonly spike_factor: number
  readonly cooldown_minutes: number
  readonly last_triggered_at: string | null
}): RuleFilter {
  return { ...rule, severities: parseSeverities(rule.severities) }
}

export function parseSeverities(text: string): Severity[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return []
  }
  return Array.isArray(parsed) ? SEVERITIES.filter((level) => parsed.includes(level)) : []
}
