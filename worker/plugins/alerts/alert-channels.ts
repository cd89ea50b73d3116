import { setValues } from '../../../drivers/dialect/dialect.ts'
import { namedBatch } from '../../../drivers/named-batch.ts'
import { raw, sql } from '../../../drivers/sql.ts'
import { readRow } from '../../../drivers/read-row.ts'
import { ALERT_CHANNEL_TYPES, ALERT_MESSAGES, type AlertChannel, type AlertChannelInput, type AlertChannelType } from '../../../shared/schemas/alerts.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { InvalidInputError, NotFoundError } from '../../errors.ts'
import type { SecretBox } from '../../security/secret-box.ts'
import { checkChannelTarget } from './channel-target.ts'

const COLUMNS = 'id, name, type, target_hint, enabled, created_at, updated_at'
const SHAPE = { id: 'number', name: 'string', type: ALERT_CHANNEL_TYPES, target_hint: 'string', enabled: 'number', created_at: 'string', updated_at: 'string?' } as const

/** A channel with what delivery needs: its URL, opened. */
export interface ChannelTarget {
  readonly id: number
  readonly type: AlertChannelType
  readonly url: string
}

/** The sealing context: a sealed URL copied to another application (or setting) does not open there. */
export const channelUrlContext = (scope: AppScope) => `app:${scope.app.id}:alerts.channel_url`

export interface ChannelWriter {
  readonly scope: AppScope
  readonly secrets: SecretBox
  /** Config `alerts.allow_local_targets`. */
  readonly allowLocal: boolean
  readonly now: string
}

export async function listChannels(scope: AppScope): Promise<AlertChannel[]> {
  const { rows } = await scope.db.execute({ sql: `SELECT ${COLUMNS} FROM ${scope.t.alertChannels} ORDER BY id DESC` })
  return rows.map(toChannel)
}

/** `POST ?api=alert-channels`: name, type and an https URL are required; the URL is sealed, its host kept as the hint. */
export async function createChannel(writer: ChannelWriter, input: AlertChannelInput): Promise<AlertChannel> {
  const { scope, now } = writer
  if (input.name === undefined) throw new InvalidInputError(ALERT_MESSAGES.channelName)
  if (input.type === undefined) throw new InvalidInputError(ALERT_MESSAGES.channelType)
  if (!input.url) throw new InvalidInputError(ALERT_MESSAGES.channelUrlRequired)
  const target = checkChannelTarget(input.url, writer.allowLocal)
  const sealed = await writer.secrets.seal(target.url, channelUrlContext(scope))
  const inserted = await scope.db.execute({
    sql: `INSERT INTO ${scope.t.alertChannels} (name, type, url_sealed, target_hint, enabled, created_at) VALUES (?, ?, ?, ?, ?, ?)${scope.db.dialect.returningId}`,
    args: [input.name, input.type, sealed, target.hint, input.enabled === false ? 0 : 1, now],
  })
  return (await readChannel(scope, inserted.lastInsertId!))!
}

/**
 * `PUT`/`PATCH ?api=alert-channels`: fields given replace, absent ones keep their value, and so does an empty
 * `url` (reference §4.2: the URL is never shown, so a form cannot send it back). 404 for an unknown id.
 */
export async function updateChannel(writer: ChannelWriter, id: number, input: AlertChannelInput): Promise<AlertChannel> {
  const { scope, now } = writer
  const changes: Record<string, string | number> = {}
  if (input.name !== undefined) changes.name = input.name
  if (input.type !== undefined) changes.type = input.type
  if (input.enabled !== undefined) changes.enabled = input.enabled ? 1 : 0
  if (input.url) {
    const target = checkChannelTarget(input.url, writer.allowLocal)
    changes.url_sealed = await writer.secrets.seal(target.url, channelUrlContext(scope))
    changes.target_hint = target.hint
  }
  changes.updated_at = now
  const { channel } = await namedBatch(scope.db, {
    update: sql`UPDATE ${raw(scope.t.alertChannels)} SET ${setValues(changes)} WHERE id = ${id}`,
    channel: { sql: `SELECT ${COLUMNS} FROM ${scope.t.alertChannels} WHERE id = ?`, args: [id] },
  })
  if (!channel.rows[0]) throw new NotFoundError(ALERT_MESSAGES.channelNotFound)
  return toChannel(channel.rows[0])
}

/** `DELETE ?api=alert-channels`: its rules go with it; its past alerts stay in the log. */
export async function deleteChannel(scope: AppScope, id: number): Promise<{ id: number; deleted: true }> {
  const { t } = scope
  const { channel } = await namedBatch(scope.db, {
    channel: { sql: `SELECT id FROM ${t.alertChannels} WHERE id = ?`, args: [id] },
    // Explicit, not left to ON DELETE: D1 and libSQL enforce foreign keys, but a deleted rule must also leave its events.
    events: { sql: `UPDATE ${t.alertEvents} SET rule_id = NULL WHERE rule_id IN (SELECT id FROM ${t.alertRules} WHERE channel_id = ?)`, args: [id] },
    unlink: { sql: `UPDATE ${t.alertEvents} SET channel_id = NULL WHERE channel_id = ?`, args: [id] },
    rules: { sql: `DELETE FROM ${t.alertRules} WHERE channel_id = ?`, args: [id] },
    remove: { sql: `DELETE FROM ${t.alertChannels} WHERE id = ?`, args: [id] },
  })
  if (!channel.rows[0]) throw new NotFoundError(ALERT_MESSAGES.channelNotFound)
  return { id, deleted: true }
}

/** One channel with its URL opened (delivery and `alert-test`); 404 when unknown. */
export async function channelTarget(scope: AppScope, secrets: SecretBox, id: number): Promise<ChannelTarget> {
  const { rows } = await scope.db.execute({ sql: `SELECT id, type, url_sealed FROM ${scope.t.alertChannels} WHERE id = ?`, args: [id] })
  if (!rows[0]) throw new NotFoundError(ALERT_MESSAGES.channelNotFound)
  const row = readRow(rows[0], { id: 'number', type: ALERT_CHANNEL_TYPES, url_sealed: 'string' }, 'alert channel')
  return { id: row.id, type: row.type, url: await secrets.open(row.url_sealed, channelUrlContext(scope)) }
}

async function readChannel(scope: AppScope, id: number): Promise<AlertChannel | null> {
  const { rows } = await scope.db.execute({ sql: `SELECT ${COLUMNS} FROM ${scope.t.alertChannels} WHERE id = ?`, args: [id] })
  return rows[0] ? toChannel(rows[0]) : null
}

function toChannel(row: Record<string, unknown>): AlertChannel {
  const channel = readRow(row, SHAPE, 'alert channel')
  return { ...channel, enabled: channel.enabled === 1 }
}
