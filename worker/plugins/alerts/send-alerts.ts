import type { Row, Statement } from '../../../drivers/driver.ts'
import { readRow } from '../../../drivers/read-row.ts'
import type { AlertChannelType, AlertPayload } from '../../../shared/schemas/alerts.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { logFailure } from '../../log-failure.ts'
import type { SecretBox } from '../../security/secret-box.ts'
import { channelUrlContext } from './alert-channels.ts'
import { CURSOR_SETTING, type AlertCursor } from './alert-cursor.ts'
import type { AlertsSettings } from './alerts-config.ts'
import { deliverAlert, type Delivery } from './deliver-alert.ts'

/** One alert a scan decided on: what to send, where, and the key that makes it once-only. */
export interface AlertToSend {
  /** null once the rule was deleted (a stalled alert sent later). */
  readonly ruleId: number | null
  readonly channelId: number
  readonly channelType: AlertChannelType
  readonly sealedUrl: string
  readonly payload: AlertPayload
  /** Rule, trigger and the cursor range (or, for spikes, the hour) it covers: unique among alert events. */
  readonly scanKey: string
}

/**
 * The claim, in the scan's cursor-moving batch: the alerts are inserted as `pending` only while the cursor
 * holds this scan's token (another scan that moved it first claims nothing), each once by its `scan_key`;
 * the last statement reads back the rows this scan claimed.
 */
export function claimAlertsStatements(scope: AppScope, alerts: readonly AlertToSend[], cursor: AlertCursor, at: string): Statement[] {
  if (alerts.length === 0) return []
  const { t, db } = scope
  const d = db.dialect
  const rows = d.jsonRecords({ rule_id: 'integer', channel_id: 'integer', trigger_type: 'text', scan_key: 'text', summary: 'text', payload: 'text' }, 'j')
  const columns = ['rule_id', 'channel_id', 'trigger_type', 'scan_key', 'claim', 'status', 'summary', 'payload', 'attempts', 'created_at']
  const json = JSON.stringify(
    alerts.map((alert) => ({
      rule_id: alert.ruleId,
      channel_id: alert.channelId,
      trigger_type: alert.payload.trigger,
      scan_key: alert.scanKey,
      summary: alert.payload.summary,
      payload: JSON.stringify(alert.payload),
    })),
  )
  const key = d.quote('key')
  return [
    {
      sql: d.insertIgnore(
        t.alertEvents,
        columns,
        `SELECT j.rule_id, j.channel_id, j.trigger_type, j.scan_key, ${d.castText('?')}, 'pending', j.summary, j.payload, 0, ${d.castText('?')} FROM ${rows}
          WHERE EXISTS (SELECT 1 FROM ${t.settings} s WHERE s.${key} = ? AND s.value = ?)`,
        ['scan_key'],
      ),
      args: [cursor.claim, at, json, CURSOR_SETTING, JSON.stringify(cursor)],
    },
    { sql: `SELECT id, scan_key FROM ${t.alertEvents} WHERE claim = ? AND status = 'pending' ORDER BY id`, args: [cursor.claim] },
  ]
}

export interface ClaimedSends {
  readonly scope: AppScope
  readonly secrets: SecretBox
  readonly settings: AlertsSettings
  readonly claimedRows: readonly Row[]
  readonly alerts: readonly AlertToSend[]
  readonly at: string
}

/**
 * Delivers the claimed alerts (one at a time: a scan holds a handful, one per rule) and records each outcome —
 * `sent` or `failed` with its detail — in one batch; a delivered alert starts its rule's cooldown.
 */
export async function sendClaimed(run: ClaimedSends): Promise<{ sent: number; failed: number }> {
  const { scope, at } = run
  const byKey = new Map(run.alerts.map((alert) => [alert.scanKey, alert]))
  const outcomes: { id: number; ruleId: number | null; delivery: Delivery }[] = []
  for (const row of run.claimedRows) {
    const { id, scan_key } = readRow(row, { id: 'number', scan_key: 'string' }, 'claimed alert')
    const alert = byKey.get(scan_key)
    if (!alert) continue
    outcomes.push({ id, ruleId: alert.ruleId, delivery: await deliverSealed(run, alert) })
  }
  if (outcomes.length === 0) return { sent: 0, failed: 0 }
  await scope.db.batch(outcomes.flatMap(({ id, ruleId, delivery }) => outcomeStatements(scope, id, ruleId, delivery, at)))
  const sent = outcomes.filter((outcome) => outcome.delivery.ok).length
  return { sent, failed: outcomes.length - sent }
}

/** Records one delivery: the event's status, detail and attempts, and on success the rule's `last_triggered_at`. */
export function outcomeStatements(scope: AppScope, eventId: number, ruleId: number | null, delivery: Delivery, at: string): Statement[] {
  const { t } = scope
  const statements: Statement[] = [
    {
      sql: `UPDATE ${t.alertEvents} SET status = ?, detail = ?, attempts = attempts + ?, sent_at = ? WHERE id = ?`,
      args: [delivery.ok ? 'sent' : 'failed', delivery.detail, delivery.attempts, delivery.ok ? at : null, eventId],
    },
  ]
  if (delivery.ok && ruleId !== null) statements.push({ sql: `UPDATE ${t.alertRules} SET last_triggered_at = ? WHERE id = ?`, args: [at, ruleId] })
  return statements
}

async function deliverSealed(run: ClaimedSends, alert: AlertToSend): Promise<Delivery> {
  let url: string
  try {
    url = await run.secrets.open(alert.sealedUrl, channelUrlContext(run.scope))
  } catch (error) {
    logFailure(`alert channel ${alert.channelId} of application ${run.scope.app.id}: its URL cannot be opened`, error)
    return { ok: false, detail: 'the channel URL cannot be decrypted (SERVICE_SECRET changed?): save the channel again', attempts: 0 }
  }
  return deliverAlert(alert.channelType, url, alert.payload, run.settings)
}
