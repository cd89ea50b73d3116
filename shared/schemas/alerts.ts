import { coerce, define, type, unknown, type Infer, type Struct } from 'superstruct'
import { SEVERITIES, type Severity } from '../constants.ts'
import { positiveId } from './fields.ts'

/** Alerting (reference §4.2): channel and rule bodies, their messages, and what the endpoints answer. */
export const ALERT_CHANNEL_TYPES = ['slack', 'discord', 'webhook'] as const
export type AlertChannelType = (typeof ALERT_CHANNEL_TYPES)[number]
export const ALERT_TRIGGERS = ['new_error', 'reoccurrence', 'spike'] as const
export type AlertTrigger = (typeof ALERT_TRIGGERS)[number]
export const ALERT_EVENT_STATUSES = ['pending', 'sent', 'failed'] as const
export type AlertEventStatus = (typeof ALERT_EVENT_STATUSES)[number]

export const ALERT_LIMITS = { nameMax: 120, urlMax: 2048, minSpikeFactor: 1.5, maxCount: 1_000_000_000, maxCooldownMinutes: 525_600 } as const

export const ALERT_MESSAGES = {
  channelName: `Channel name must be 1–${ALERT_LIMITS.nameMax} characters.`,
  channelType: 'Channel type must be slack, discord, or webhook.',
  channelUrl: 'Channel URL must be a valid https:// URL.',
  channelUrlRequired: 'A channel URL is required.',
  channelId: 'A valid alert channel id is required.',
  channelNotFound: 'Alert channel not found.',
  enabled: 'enabled must be true or false.',
  ruleName: `Rule name must be 1–${ALERT_LIMITS.nameMax} characters.`,
  trigger: 'Trigger must be new_error, reoccurrence, or spike.',
  severities: 'severities must be a list of severity names.',
  moduleId: 'module_id must be a module id or null.',
  moduleNotFound: 'Module not found.',
  minCount: 'min_count must be a whole number of at least 1.',
  spikeFactor: `spike_factor must be a number of at least ${ALERT_LIMITS.minSpikeFactor}.`,
  cooldown: 'cooldown_minutes must be a whole number from 0 to 525600 (a year).',
  ruleId: 'A valid alert rule id is required.',
  ruleNotFound: 'Alert rule not found.',
} as const

const absent = (value: unknown) => value === undefined

/** An optional trimmed name of 1–120 characters (the value is trimmed). */
function optionalName(message: string): Struct<string | undefined, null> {
  return coerce(
    define<string | undefined>('name', (value) => absent(value) || (typeof value === 'string' && value.length >= 1 && value.length <= ALERT_LIMITS.nameMax) || message),
    unknown(),
    (value) => (typeof value === 'string' ? value.trim() : value),
  )
}

function optionalMember<T extends string>(values: readonly T[], message: string): Struct<T | undefined, null> {
  const members: readonly string[] = values
  return coerce(
    define<T | undefined>('member', (value) => absent(value) || (typeof value === 'string' && members.includes(value)) || message),
    unknown(),
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  )
}

const optionalBoolean = define<boolean | undefined>('enabled', (value) => absent(value) || typeof value === 'boolean' || ALERT_MESSAGES.enabled)

/** A number (or numeric string, as form values are) within [min, max], optionally whole. */
function optionalNumber(min: number, max: number, whole: boolean, message: string): Struct<number | undefined, null> {
  return coerce(
    define<number | undefined>('alertNumber', (value) => absent(value) || (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max && (!whole || Number.isInteger(value))) || message),
    unknown(),
    (value) => (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value),
  )
}

/** Body of `alert-channels` create and update. On update an absent field keeps its value, and so does an empty `url`. */
export const AlertChannelInputSchema = type({
  name: optionalName(ALERT_MESSAGES.channelName),
  type: optionalMember(ALERT_CHANNEL_TYPES, ALERT_MESSAGES.channelType),
  url: define<string | undefined>('url', (value) => absent(value) || value === null || (typeof value === 'string' && value.length <= ALERT_LIMITS.urlMax) || ALERT_MESSAGES.channelUrl),
  enabled: optionalBoolean,
})
export type AlertChannelInput = Infer<typeof AlertChannelInputSchema>

/** Body of `alert-rules` create and update. On update an absent field keeps its value. */
export const AlertRuleInputSchema = type({
  name: optionalName(ALERT_MESSAGES.ruleName),
  channel_id: coerce(
    define<number | undefined>('channel', (value) => absent(value) || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) || ALERT_MESSAGES.channelId),
    unknown(),
    (value) => (typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value),
  ),
  trigger_type: optionalMember(ALERT_TRIGGERS, ALERT_MESSAGES.trigger),
  // Unknown severity names are dropped (reference §4.2: "filtered to known levels"); empty means every severity.
  severities: coerce(
    define<Severity[] | undefined>('severities', (value) => absent(value) || (Array.isArray(value) && value.every((item) => (SEVERITIES as readonly string[]).includes(item))) || ALERT_MESSAGES.severities),
    unknown(),
    (value) =>
      Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? SEVERITIES.filter((level) => value.some((item: string) => item.trim().toUpperCase() === level))
        : value,
  ),
  module_id: coerce(
    define<number | null | undefined>('module', (value) => absent(value) || value === null || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) || ALERT_MESSAGES.moduleId),
    unknown(),
    (value) => (value === '' ? null : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value),
  ),
  min_count: optionalNumber(1, ALERT_LIMITS.maxCount, true, ALERT_MESSAGES.minCount),
  spike_factor: optionalNumber(ALERT_LIMITS.minSpikeFactor, 1_000_000, false, ALERT_MESSAGES.spikeFactor),
  cooldown_minutes: optionalNumber(0, ALERT_LIMITS.maxCooldownMinutes, true, ALERT_MESSAGES.cooldown),
  enabled: optionalBoolean,
})
export type AlertRuleInput = Infer<typeof AlertRuleInputSchema>

/** Body of `POST ?api=alert-test`: the channel to test. */
export const AlertTestSchema = type({ id: positiveId(ALERT_MESSAGES.channelId) })

/** A channel as the API shows it: never its URL, only the URL's host. */
export interface AlertChannel {
  readonly id: number
  readonly name: string
  readonly type: AlertChannelType
  readonly enabled: boolean
  readonly target_hint: string
  readonly created_at: string
  readonly updated_at: string | null
}

export interface AlertRule {
  readonly id: number
  readonly name: string
  readonly channel_id: number
  readonly trigger_type: AlertTrigger
  readonly severities: readonly Severity[]
  readonly module_id: number | null
  readonly min_count: number
  readonly spike_factor: number
  readonly cooldown_minutes: number
  readonly enabled: boolean
  readonly last_triggered_at: string | null
  readonly created_at: string
  readonly updated_at: string | null
  readonly channel_name: string
  readonly channel_type: AlertChannelType
  readonly module_name: string | null
  readonly module_slug: string | null
}

/** One alert a scan produced, as `GET ?api=alert-events` lists it (newest first). */
export interface AlertEvent {
  readonly id: number
  readonly rule_id: number | null
  readonly rule_name: string | null
  readonly channel_id: number | null
  readonly trigger_type: AlertTrigger
  readonly status: AlertEventStatus
  readonly summary: string
  readonly detail: string | null
  readonly attempts: number
  readonly created_at: string
  readonly sent_at: string | null
}

/** `POST ?api=alert-test` (reference §4.2). */
export interface AlertTestResult {
  readonly ok: boolean
  readonly detail: string
}

/** The alert as a generic webhook receives it, and as Slack and Discord text is written from (reference §4.2). */
export interface AlertPayload {
  readonly trigger: AlertTrigger | 'test'
  readonly summary: string
  readonly items: readonly { readonly severity: string; readonly title: string; readonly count: number }[]
  readonly more: number
  readonly url: string | null
}

/** `POST ?api=alert-preview`: what a rule would have sent over the last 24 hours; `count` is every matching issue. */
export interface AlertPreview extends AlertPayload {
  readonly count: number
}
