import { readRow } from '../../../drivers/read-row.ts'
import { ALERT_EVENT_STATUSES, ALERT_TRIGGERS, type AlertEvent, type AlertTestResult } from '../../../shared/schemas/alerts.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import type { SecretBox } from '../../security/secret-box.ts'
import { channelTarget } from './alert-channels.ts'
import type { AlertsSettings } from './alerts-config.ts'
import { deliverAlert } from './deliver-alert.ts'
import { testPayload } from './alert-message.ts'

/** `GET ?api=alert-events` page size (reference §4.2: default 25, clamped to 1..200). */
export const ALERT_EVENTS_DEFAULT_LIMIT = 25
export const ALERT_EVENTS_MAX_LIMIT = 200

/** The `limit` query value, clamped (not refused) as the reference does. */
export function alertEventsLimit(raw: string | null): number {
  const parsed = raw === null || raw.trim() === '' ? ALERT_EVENTS_DEFAULT_LIMIT : Math.trunc(Number(raw))
  return Number.isFinite(parsed) ? Math.min(ALERT_EVENTS_MAX_LIMIT, Math.max(1, parsed)) : ALERT_EVENTS_DEFAULT_LIMIT
}

/** The deliveries, newest first, with their rule's name (null once the rule is deleted). */
export async function listAlertEvents(scope: AppScope, limit: number): Promise<AlertEvent[]> {
  const { t } = scope
  const { rows } = await scope.db.execute({
    sql: `SELECT e.id, e.rule_id, r.name AS rule_name, e.channel_id, e.trigger_type, e.status, e.summary, e.detail, e.attempts, e.created_at, e.sent_at
      FROM ${t.alertEvents} e LEFT JOIN ${t.alertRules} r ON r.id = e.rule_id ORDER BY e.id DESC LIMIT ${limit}`,
  })
  return rows.map((row) =>
    readRow(
      row,
      {
        id: 'number',
        rule_id: 'number?',
        rule_name: 'string?',
        channel_id: 'number?',
        trigger_type: ALERT_TRIGGERS,
        status: ALERT_EVENT_STATUSES,
        summary: 'string',
        detail: 'string?',
        attempts: 'number',
        created_at: 'string',
        sent_at: 'string?',
      },
      'alert event',
    ),
  )
}

/**
 * `POST ?api=alert-test` (reference §4.2): sends the test alert to one channel now, enabled or not, and says
 * how it went. Not recorded among the alert events (they are what rules fired).
 */
export async function testChannel(scope: AppScope, secrets: SecretBox, settings: AlertsSettings, channelId: number, serviceUrl: string | null): Promise<AlertTestResult> {
  const channel = await channelTarget(scope, secrets, channelId)
  const delivery = await deliverAlert(channel.type, channel.url, testPayload(serviceUrl), settings)
  return { ok: delivery.ok, detail: delivery.detail }
}
