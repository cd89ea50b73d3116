import { namedBatch } from '../../../drivers/named-batch.ts'
import { readRow } from '../../../drivers/read-row.ts'
import { ALERT_MESSAGES, type AlertPreview, type AlertRuleInput } from '../../../shared/schemas/alerts.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { InvalidInputError } from '../../errors.ts'
import { toTimestamp } from '../../time.ts'
import { alertPayload } from './alert-message.ts'
import { isSpiking, matchesFilter, type RuleFilter, type SpikeCandidate } from './rule-matching.ts'
import { SCAN_LIMIT, spikeCandidatesStatement } from './alert-scan.ts'
import { CANDIDATE_ISSUE_COLUMNS } from './rule-filter.ts'

/**
 * What a rule (saved or still a form) would have alerted about over the last 24 hours, as one message: new
 * issues created in that time, issues that reoccurred in it, or — for spikes — the issues spiking right now
 * (last hour against the 23 before). One read round trip; nothing is sent or stored. The cooldown is not
 * applied (it depends on when alerts were sent).
 */
export async function previewRule(scope: AppScope, input: AlertRuleInput, now: Date): Promise<AlertPreview> {
  if (input.trigger_type === undefined) throw new InvalidInputError(ALERT_MESSAGES.trigger)
  const { t } = scope
  const rule: RuleFilter = {
    trigger_type: input.trigger_type,
    severities: input.severities ?? [],
    module_id: input.module_id ?? null,
    min_count: input.min_count ?? 1,
    spike_factor: input.spike_factor ?? 3,
    cooldown_minutes: 0,
    last_triggered_at: null,
  }
  const dayAgo = toTimestamp(new Date(now.getTime() - 86_400_000))
  const issue = CANDIDATE_ISSUE_COLUMNS
  const { candidates } = await namedBatch(
    scope.db,
    {
      candidates:
        rule.trigger_type === 'spike'
          ? spikeCandidatesStatement(scope, now)
          : rule.trigger_type === 'new_error'
            ? { sql: `SELECT id, severity, title, count, module_id FROM ${t.groups} WHERE created_at >= ? AND origin = 'ingested' ORDER BY id LIMIT ${SCAN_LIMIT}`, args: [dayAgo] }
            : {
                sql: `SELECT DISTINCT g.id, g.severity, g.title, g.count, g.module_id FROM ${t.history} h JOIN ${t.groups} g ON g.id = h.group_id
                  WHERE h.created_at >= ? AND h.to_status = 'reoccurred' ORDER BY g.id LIMIT ${SCAN_LIMIT}`,
                args: [dayAgo],
              },
    },
    { mode: 'read' },
  )
  const issues =
    rule.trigger_type === 'spike'
      ? candidates.rows.map((row): SpikeCandidate => readRow(row, { ...issue, recent: 'number', total: 'number' }, 'spike')).filter((candidate) => isSpiking(rule, candidate))
      : candidates.rows.map((row) => readRow(row, issue, 'issue')).filter((candidate) => matchesFilter(rule, candidate))
  return { ...alertPayload(rule.trigger_type, issues, null), count: issues.length }
}
