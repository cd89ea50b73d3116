import { SEVERITIES, type Severity } from '../../../shared/constants.ts'
import { ALERT_TRIGGERS } from '../../../shared/schemas/alerts.ts'
import type { RowOf } from '../../../drivers/read-row.ts'
import type { RuleFilter } from './rule-matching.ts'

/** How the filter columns of an `alert_rules` row decode (`readRow`); severities are a JSON array. */
export const RULE_FILTER_COLUMNS = {
  trigger_type: ALERT_TRIGGERS,
  severities: 'string',
  module_id: 'number?',
  min_count: 'number',
  spike_factor: 'number',
  cooldown_minutes: 'number',
  last_triggered_at: 'string?',
} as const

/** How a candidate issue of a scan or preview decodes. */
export const CANDIDATE_ISSUE_COLUMNS = { id: 'number', severity: 'string', title: 'string', count: 'number', module_id: 'number?' } as const

/** A rule row's filter fields (severities stored as a JSON array). */
export function toRuleFilter(rule: RowOf<typeof RULE_FILTER_COLUMNS>): RuleFilter {
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
