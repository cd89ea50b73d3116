import { namedBatch } from '../../../drivers/named-batch.ts'
import { readRow } from '../../../drivers/read-row.ts'
import { ALERT_CHANNEL_TYPES, type AlertPayload } from '../../../shared/schemas/alerts.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { randomToken } from '../../digest/persist/random-token.ts'
import type { SecretBox } from '../../security/secret-box.ts'
import { toTimestamp } from '../../time.ts'
import type { AlertsSettings } from './alerts-config.ts'
import { outcomeStatements, sendClaimed, type AlertToSend } from './send-alerts.ts'

/** A claimed alert still `pending` this long after its scan was cut off before delivering it. */
export const STALLED_AFTER_MS = 5 * 60_000
/** Stalled alerts one maintenance run sends. */
const RESEND_LIMIT = 20

/** Claim tokens of this path start with this and the claim's time: `resent:YYYY-MM-DD HH:MM:SS:<random>`. */
const RESENT = 'resent:'

/**
 * The cron trigger's share of alerting: alerts a scan claimed but never delivered (its isolate ended between
 * the claim and the send) are claimed again — by this run alone, the claim token moving from the old value
 * — and sent, so an alert is neither lost nor sent twice by two maintenance runs. An alert whose channel was
 * deleted meanwhile is marked failed.
 *
 * An alert counts as stalled by the time of its latest claim, not of its creation: another run that reclaimed
 * it a moment ago may still be sending it. Without that, a run reading the alert after the other's reclaim
 * took the other's token for a lost one, and both sent (seen once in CI: two concurrent maintenance runs on
 * the Deno/Neon leg). A scan's claim is as old as the alert (`created_at`); a reclaim's time is in its token.
 */
export async function resendStalledAlerts(scope: AppScope, secrets: SecretBox, settings: AlertsSettings, now: Date): Promise<{ sent: number; failed: number }> {
  const { t } = scope
  const at = toTimestamp(now)
  const cutoff = toTimestamp(new Date(now.getTime() - STALLED_AFTER_MS))
  const { rows } = await scope.db.execute({
    sql: `SELECT e.id, e.rule_id, e.claim, e.scan_key, e.payload, e.channel_id, c.type AS channel_type, c.url_sealed
      FROM ${t.alertEvents} e LEFT JOIN ${t.alertChannels} c ON c.id = e.channel_id
      WHERE e.status = 'pending' AND e.created_at <= ? AND (e.claim NOT LIKE '${RESENT}%' OR substr(e.claim, ${RESENT.length + 1}, 19) <= ?)
      ORDER BY e.id LIMIT ${RESEND_LIMIT}`,
    args: [cutoff, cutoff],
  })
  if (rows.length === 0) return { sent: 0, failed: 0 }
  const stalled = rows.map((row) => {
    const alert = readRow(row, { id: 'number', rule_id: 'number?', claim: 'string', scan_key: 'string', payload: 'string', channel_id: 'number?', channel_type: 'string?', url_sealed: 'string?' }, 'stalled alert')
    const channelType = ALERT_CHANNEL_TYPES.find((type) => type === alert.channel_type) ?? null
    return { ...alert, channel_type: channelType }
  })
  const orphans = stalled.filter((alert) => alert.channel_type === null || alert.url_sealed === null || alert.channel_id === null)
  const claim = `${RESENT}${at}:${randomToken()}`
  const live = stalled.filter((alert) => !orphans.includes(alert))
  const { claimed } = await namedBatch(scope.db, {
    orphans: orphans.flatMap((alert) => outcomeStatements(scope, alert.id, null, { ok: false, detail: 'the channel was deleted before the alert was sent', attempts: 0 }, at)),
    reclaim: live.map((alert) => ({ sql: `UPDATE ${t.alertEvents} SET claim = ? WHERE id = ? AND claim = ? AND status = 'pending'`, args: [claim, alert.id, alert.claim] })),
    claimed: { sql: `SELECT id, scan_key FROM ${t.alertEvents} WHERE claim = ? AND status = 'pending' ORDER BY id`, args: [claim] },
  })
  const alerts: AlertToSend[] = live.map((alert) => ({
    ruleId: alert.rule_id,
    channelId: alert.channel_id!,
    channelType: alert.channel_type!,
    sealedUrl: alert.url_sealed!,
    payload: JSON.parse(alert.payload) as AlertPayload,
    scanKey: alert.scan_key,
  }))
  const outcome = await sendClaimed({ scope, secrets, settings, claimedRows: claimed.rows, alerts, at })
  return { sent: outcome.sent, failed: outcome.failed + orphans.length }
}
