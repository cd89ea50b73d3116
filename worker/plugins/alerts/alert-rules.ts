import { setValues } from '../../../drivers/dialect/dialect.ts'
import { namedBatch } from '../../../drivers/named-batch.ts'
import { raw, sql } from '../../../drivers/sql.ts'
import { readRow } from '../../../drivers/read-row.ts'
import { ALERT_CHANNEL_TYPES, ALERT_MESSAGES, type AlertRule, type AlertRuleInput } from '../../../shared/schemas/alerts.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { InvalidInputError, NotFoundError } from '../../errors.ts'
import { parseSeverities, RULE_FILTER_COLUMNS } from './rule-filter.ts'
import { initCursorStatement, maxIdsStatement } from './alert-cursor.ts'
import { randomToken } from '../../digest/persist/random-token.ts'

/** Defaults of reference §4.2. */
const DEFAULTS = { min_count: 1, spike_factor: 3, cooldown_minutes: 60 } as const

const SHAPE = {
  ...RULE_FILTER_COLUMNS,
  id: 'number',
  name: 'string',
  channel_id: 'number',
  enabled: 'number',
  created_at: 'string',
  updated_at: 'string?',
  channel_name: 'string',
  channel_type: ALERT_CHANNEL_TYPES,
  module_name: 'string?',
  module_slug: 'string?',
} as const

/** The rule list's rows (reference §4.2: `r.*` with the channel's and module's names), newest first. */
function selectRules(scope: AppScope, where = '1 = 1'): string {
  const { t } = scope
  return `SELECT r.id, r.name, r.channel_id, r.trigger_type, r.severities, r.module_id, r.min_count, r.spike_factor, r.cooldown_minutes,
      r.enabled, r.last_triggered_at, r.created_at, r.updated_at, c.name AS channel_name, c.type AS channel_type,
      m.name AS module_name, m.slug AS module_slug
    FROM ${t.alertRules} r JOIN ${t.alertChannels} c ON c.id = r.channel_id LEFT JOIN ${t.modules} m ON m.id = r.module_id
    WHERE ${where} ORDER BY r.id DESC`
}

export async function listRules(scope: AppScope): Promise<AlertRule[]> {
  return (await scope.db.execute({ sql: selectRules(scope) })).rows.map(toRule)
}

/**
 * `POST ?api=alert-rules`: name, channel and trigger required; the channel (and a module, when given) must
 * exist. The first rule also starts the scan cursor at the newest issue and status change, so what happened
 * before alerting was set up is never sent (reference §4.2 starts it at the first scan instead, which would
 * swallow that scan's own new issues).
 */
export async function createRule(scope: AppScope, input: AlertRuleInput, now: string): Promise<AlertRule> {
  if (input.name === undefined) throw new InvalidInputError(ALERT_MESSAGES.ruleName)
  if (input.channel_id === undefined) throw new InvalidInputError(ALERT_MESSAGES.channelId)
  if (input.trigger_type === undefined) throw new InvalidInputError(ALERT_MESSAGES.trigger)
  const max = await checkReferences(scope, input.channel_id, input.module_id ?? null)
  const { inserted } = await namedBatch(scope.db, {
    inserted: {
      sql: `INSERT INTO ${scope.t.alertRules} (name, channel_id, trigger_type, severities, module_id, min_count, spike_factor, cooldown_minutes, enabled, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)${scope.db.dialect.returningId}`,
      args: [
        input.name,
        input.channel_id,
        input.trigger_type,
        JSON.stringify(input.severities ?? []),
        input.module_id ?? null,
        input.min_count ?? DEFAULTS.min_count,
        input.spike_factor ?? DEFAULTS.spike_factor,
        input.cooldown_minutes ?? DEFAULTS.cooldown_minutes,
        input.enabled === false ? 0 : 1,
        now,
      ],
    },
    cursor: initCursorStatement(scope, { ...max, claim: randomToken() }, now),
  })
  return (await readRule(scope, inserted.lastInsertId!))!
}

/** `PUT`/`PATCH ?api=alert-rules`: fields given replace, absent ones keep their value; 404 for an unknown id. */
export async function updateRule(scope: AppScope, id: number, input: AlertRuleInput, now: string): Promise<AlertRule> {
  if (input.channel_id !== undefined || (input.module_id !== undefined && input.module_id !== null)) {
    await checkReferences(scope, input.channel_id ?? null, input.module_id ?? null)
  }
  const changes: Record<string, string | number | null> = {}
  for (const column of ['name', 'channel_id', 'trigger_type', 'module_id', 'min_count', 'spike_factor', 'cooldown_minutes'] as const) {
    if (input[column] !== undefined) changes[column] = input[column]
  }
  if (input.severities !== undefined) changes.severities = JSON.stringify(input.severities)
  if (input.enabled !== undefined) changes.enabled = input.enabled ? 1 : 0
  changes.updated_at = now
  const { rule } = await namedBatch(scope.db, {
    update: sql`UPDATE ${raw(scope.t.alertRules)} SET ${setValues(changes)} WHERE id = ${id}`,
    rule: { sql: selectRules(scope, 'r.id = ?'), args: [id] },
  })
  if (!rule.rows[0]) throw new NotFoundError(ALERT_MESSAGES.ruleNotFound)
  return toRule(rule.rows[0])
}

/** `DELETE ?api=alert-rules`: its past alerts stay in the log, without the rule. */
export async function deleteRule(scope: AppScope, id: number): Promise<{ id: number; deleted: true }> {
  const { t } = scope
  const { rule } = await namedBatch(scope.db, {
    rule: { sql: `SELECT id FROM ${t.alertRules} WHERE id = ?`, args: [id] },
    events: { sql: `UPDATE ${t.alertEvents} SET rule_id = NULL WHERE rule_id = ?`, args: [id] },
    remove: { sql: `DELETE FROM ${t.alertRules} WHERE id = ?`, args: [id] },
  })
  if (!rule.rows[0]) throw new NotFoundError(ALERT_MESSAGES.ruleNotFound)
  return { id, deleted: true }
}

/** Checks the channel and module exist; answers the newest issue and status-change ids (read in the same batch). */
async function checkReferences(scope: AppScope, channelId: number | null, moduleId: number | null): Promise<{ group_id: number; history_id: number }> {
  const { channel, module, maxima } = await namedBatch(
    scope.db,
    {
      channel: channelId === null ? null : { sql: `SELECT id FROM ${scope.t.alertChannels} WHERE id = ?`, args: [channelId] },
      module: moduleId === null ? null : { sql: `SELECT id FROM ${scope.t.modules} WHERE id = ?`, args: [moduleId] },
      maxima: maxIdsStatement(scope),
    },
    { mode: 'read' },
  )
  if (channel && !channel.rows[0]) throw new InvalidInputError(ALERT_MESSAGES.channelNotFound)
  if (module && !module.rows[0]) throw new InvalidInputError(ALERT_MESSAGES.moduleNotFound)
  return readRow(maxima.rows[0], { group_id: 'number', history_id: 'number' }, 'alert maxima')
}

async function readRule(scope: AppScope, id: number): Promise<AlertRule | null> {
  const { rows } = await scope.db.execute({ sql: selectRules(scope, 'r.id = ?'), args: [id] })
  return rows[0] ? toRule(rows[0]) : null
}

export function toRule(row: Record<string, unknown>): AlertRule {
  const rule = readRow(row, SHAPE, 'alert rule')
  return { ...rule, severities: parseSeverities(rule.severities), enabled: rule.enabled === 1 }
}
