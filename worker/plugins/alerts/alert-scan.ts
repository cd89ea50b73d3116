import type { Statement } from '../../../drivers/driver.ts'
import { namedBatch } from '../../../drivers/named-batch.ts'
import { readRow } from '../../../drivers/read-row.ts'
import { ALERT_CHANNEL_TYPES, type AlertPayload, type AlertTrigger } from '../../../shared/schemas/alerts.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { randomToken } from '../../digest/persist/random-token.ts'
import { settingValue } from '../../settings/app-settings.ts'
import { toTimestamp } from '../../time.ts'
import type { SecretBox } from '../../security/secret-box.ts'
import { alertPayload } from './alert-message.ts'
import { initCursorStatement, maxIdsStatement, moveCursorStatement, parseCursor, readCursorStatement, type AlertCursor } from './alert-cursor.ts'
import { claimAlertsStatements, sendClaimed, type AlertToSend } from './send-alerts.ts'
import type { AlertsSettings } from './alerts-config.ts'
import { coolingDown, isSpiking, matchesFilter, type CandidateIssue, type RuleFilter, type SpikeCandidate } from './rule-matching.ts'
import { CANDIDATE_ISSUE_COLUMNS, RULE_FILTER_COLUMNS, toRuleFilter } from './rule-filter.ts'

/** New issues and reoccurrences one scan looks at (reference §4.2: at most 1000); the rest wait for the next. */
export const SCAN_LIMIT = 1000

export interface AlertScan {
  readonly scope: AppScope
  readonly secrets: SecretBox
  readonly settings: AlertsSettings
  /** `SERVICE_URL`: the link an alert carries (reference's `LOG_LENS_URL`), or none. */
  readonly serviceUrl: string | null
  readonly now: Date
}

export interface ScanOutcome {
  /** False on the first scan, which only starts the cursor. */
  readonly scanned: boolean
  readonly sent: number
  readonly failed: number
}

const RULE_SHAPE = { ...RULE_FILTER_COLUMNS, id: 'number', name: 'string', channel_id: 'number', channel_type: ALERT_CHANNEL_TYPES, url_sealed: 'string' } as const
const ISSUE_SHAPE = CANDIDATE_ISSUE_COLUMNS

/**
 * One alerting scan (reference §4.2), run after an ingest has answered: enabled rules of enabled channels,
 * the issues new since the cursor, the reoccurrences since it, and the issues spiking over the last hour;
 * one consolidated alert per rule. Round trips: one read of cursor, rules and maxima; one of the candidates;
 * one write that moves the cursor and claims the alerts (only the scan whose cursor move won stores any, and
 * each alert's `scan_key` is unique, so a retried or concurrent scan sends nothing twice); then the deliveries
 * and one write of their outcomes.
 */
export async function scanAlerts(scan: AlertScan): Promise<ScanOutcome> {
  const { scope, now } = scan
  const { t } = scope
  const at = toTimestamp(now)
  const { cursor: cursorRow, rules: ruleRows, maxima } = await namedBatch(
    scope.db,
    {
      cursor: readCursorStatement(scope),
      rules: {
        sql: `SELECT r.id, r.name, r.channel_id, c.type AS channel_type, c.url_sealed, r.trigger_type, r.severities, r.module_id, r.min_count,
            r.spike_factor, r.cooldown_minutes, r.last_triggered_at
          FROM ${t.alertRules} r JOIN ${t.alertChannels} c ON c.id = r.channel_id WHERE r.enabled = 1 AND c.enabled = 1 ORDER BY r.id`,
      },
      maxima: maxIdsStatement(scope),
    },
    { mode: 'read' },
  )
  const stored = settingValue(cursorRow.rows)
  const from = parseCursor(stored)
  const max = readRow(maxima.rows[0], { group_id: 'number', history_id: 'number' }, 'alert maxima')
  if (from === null || stored === null) {
    // No cursor yet (or an unreadable one): start it at the newest ids, sending nothing.
    const start = { ...max, claim: randomToken() }
    await scope.db.batch([stored === null ? initCursorStatement(scope, start, at) : moveCursorStatement(scope, stored, start, at)])
    return { scanned: false, sent: 0, failed: 0 }
  }
  const rules = ruleRows.rows.map((row) => {
    const rule = readRow(row, RULE_SHAPE, 'alert rule')
    return { ...rule, filter: toRuleFilter(rule) }
  })
  const wants = (trigger: AlertTrigger) => rules.some((rule) => rule.trigger_type === trigger)
  const { fresh, reoccurred, spikes } = await namedBatch(
    scope.db,
    {
      fresh:
        wants('new_error') && max.group_id > from.group_id
          ? {
              sql: `SELECT id, severity, title, count, module_id FROM ${t.groups} WHERE id > ? AND id <= ? AND origin = 'ingested' ORDER BY id LIMIT ${SCAN_LIMIT}`,
              args: [from.group_id, max.group_id],
            }
          : null,
      reoccurred:
        wants('reoccurrence') && max.history_id > from.history_id
          ? {
              sql: `SELECT h.id AS history_id, g.id, g.severity, g.title, g.count, g.module_id FROM ${t.history} h JOIN ${t.groups} g ON g.id = h.group_id
                WHERE h.id > ? AND h.id <= ? AND h.to_status = 'reoccurred' ORDER BY h.id LIMIT ${SCAN_LIMIT}`,
              args: [from.history_id, max.history_id],
            }
          : null,
      spikes: wants('spike') ? spikeCandidatesStatement(scope, now) : null,
    },
    { mode: 'read' },
  )
  const freshIssues = fresh ? fresh.rows.map((row) => readRow(row, ISSUE_SHAPE, 'new issue')) : []
  const reoccurredRows = reoccurred ? reoccurred.rows.map((row) => readRow(row, { ...ISSUE_SHAPE, history_id: 'number' }, 'reoccurrence')) : []
  const spiking = spikes ? spikes.rows.map((row): SpikeCandidate => readRow(row, { ...ISSUE_SHAPE, recent: 'number', total: 'number' }, 'spike')) : []
  // A truncated page moves the cursor only past what it read; the rest is the next scan's.
  const to: AlertCursor = {
    group_id: fresh && freshIssues.length === SCAN_LIMIT ? freshIssues.at(-1)!.id : max.group_id,
    history_id: reoccurred && reoccurredRows.length === SCAN_LIMIT ? reoccurredRows.at(-1)!.history_id : max.history_id,
    claim: randomToken(),
  }
  const alerts: AlertToSend[] = []
  for (const rule of rules) {
    if (coolingDown(rule.filter, now)) continue
    const issues = matchingIssues(rule.filter, freshIssues, reoccurredRows, spiking)
    if (issues.length === 0) continue
    const range = rule.trigger_type === 'new_error' ? `${from.group_id}-${to.group_id}` : rule.trigger_type === 'reoccurrence' ? `${from.history_id}-${to.history_id}` : at.slice(0, 13)
    const payload: AlertPayload = alertPayload(rule.trigger_type, issues, scan.serviceUrl)
    alerts.push({ ruleId: rule.id, channelId: rule.channel_id, channelType: rule.channel_type, sealedUrl: rule.url_sealed, payload, scanKey: `${rule.id}:${rule.trigger_type}:${range}` })
  }
  const claimed = await scope.db.batch([moveCursorStatement(scope, stored, to, at), ...claimAlertsStatements(scope, alerts, to, at)])
  return { scanned: true, ...(await sendClaimed({ ...scan, claimedRows: claimed.at(-1)?.rows ?? [], alerts, at })) }
}

/** Issues with occurrences in the last hour: `recent` (that hour) and `total` (the last 24 hours), most recent first. */
export function spikeCandidatesStatement(scope: AppScope, now: Date): Statement {
  const { t } = scope
  return {
    sql: `SELECT g.id, g.severity, g.title, g.count, g.module_id, n.recent, n.total
      FROM (SELECT o.group_id, SUM(CASE WHEN o.occurred_at >= ? THEN 1 ELSE 0 END) AS recent, COUNT(*) AS total
        FROM ${t.occurrences} o WHERE o.occurred_at >= ? GROUP BY o.group_id) n
      JOIN ${t.groups} g ON g.id = n.group_id WHERE n.recent > 0 ORDER BY n.recent DESC, g.id`,
    args: [toTimestamp(new Date(now.getTime() - 3_600_000)), toTimestamp(new Date(now.getTime() - 86_400_000))],
  }
}

/** The issues a rule alerts about this scan, each once. */
function matchingIssues(rule: RuleFilter, fresh: readonly CandidateIssue[], reoccurred: readonly CandidateIssue[], spiking: readonly SpikeCandidate[]): CandidateIssue[] {
  if (rule.trigger_type === 'spike') return spiking.filter((issue) => isSpiking(rule, issue))
  const source = rule.trigger_type === 'new_error' ? fresh : reoccurred
  const seen = new Set<number>()
  const issues: CandidateIssue[] = []
  for (const issue of source) {
    if (!matchesFilter(rule, issue) || seen.has(issue.id)) continue
    seen.add(issue.id)
    issues.push(issue)
  }
  return issues
}
