import { coerce, define, type, unknown, type Infer, type Struct } from 'superstruct'
import { positiveId } from './fields.ts'

/**
 * The issue-tracker integration (seed §4.1 `tracker-*`, reference §4.5 under its `linear-*` names, issue 16):
 * settings bodies, messages and what the endpoints answer. Linear is the first tracker, GitHub Issues the second.
 */
export const TRACKER_PROVIDERS = ['linear', 'github'] as const
export type TrackerProvider = (typeof TRACKER_PROVIDERS)[number]

/** What users call each tracker in messages. */
export const TRACKER_NAMES: Readonly<Record<TrackerProvider, string>> = { linear: 'Linear', github: 'GitHub' }

/** Reference §4.5: at most 50 labels of at most 80 characters; Linear team keys are `^[A-Z0-9]{1,20}$`. */
export const TRACKER_LIMITS = { listMax: 50, labelMax: 80, assigneeMax: 200, secretMax: 500, commentMax: 2000 } as const
export const TEAM_KEY_PATTERN = /^[A-Z0-9]{1,20}$/
/** GitHub's `owner/name` (its own character rules for both parts). */
export const REPOSITORY_PATTERN = /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9_.-]{1,100}$/

export const TRACKER_MESSAGES = {
  provider: `provider must be one of: ${TRACKER_PROVIDERS.join(', ')}.`,
  boolean: (field: string) => `${field} must be true or false.`,
  labels: `labels must be a list of at most ${TRACKER_LIMITS.listMax} names of 1–${TRACKER_LIMITS.labelMax} characters.`,
  assignees: `assignees must be a list of at most ${TRACKER_LIMITS.listMax} emails, user ids or logins of 1–${TRACKER_LIMITS.assigneeMax} characters.`,
  teamKey: 'team_key must be 1–20 capital letters or digits (a Linear team key such as ENG), or empty.',
  repository: 'repository must be a GitHub repository as owner/name, or empty.',
  secret: (field: string) => `${field} must be a string of at most ${TRACKER_LIMITS.secretMax} characters, or null to remove it.`,
  issueId: 'A valid issue id is required.',
  comment: `comment must be text of at most ${TRACKER_LIMITS.commentMax} characters.`,
  /** Reference §4.5, with the tracker named and the seed's configuration names. */
  keyRequired: (name: string, env: string) => `Add a ${name} API key (or set ${env}) before enabling the integration.`,
  envLocked: (what: string, env: string) => `The ${what} is set by the environment (${env}) and cannot be changed here.`,
  notEnabled: 'The issue-tracker integration is not enabled.',
  noWebhookSecret: (name: string) => `No ${name} webhook secret is configured.`,
  badSignature: (name: string) => `Invalid ${name} webhook signature.`,
  unreadableBody: 'The webhook payload could not be read for verification.',
  alreadyLinked: 'This issue is already linked to a tracker issue.',
} as const

const absent = (value: unknown) => value === undefined

function optionalBoolean(field: string): Struct<boolean | undefined, null> {
  return define<boolean | undefined>(field, (value) => absent(value) || typeof value === 'boolean' || TRACKER_MESSAGES.boolean(field))
}

/** A list of trimmed, distinct (case-insensitively) strings of 1–`max` characters. */
function stringList(max: number, message: string, lower = false): Struct<string[] | undefined, null> {
  return coerce(
    define<string[] | undefined>('list', (value) =>
      absent(value) || (Array.isArray(value) && value.length <= TRACKER_LIMITS.listMax && value.every((item) => typeof item === 'string' && item.length >= 1 && item.length <= max)) || message,
    ),
    unknown(),
    (value) => {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return value
      const seen = new Set<string>()
      const out: string[] = []
      for (const raw of value as string[]) {
        const item = lower ? raw.trim().toLowerCase() : raw.trim()
        const key = item.toLowerCase()
        if (item === '' || seen.has(key)) continue
        seen.add(key)
        out.push(item)
      }
      return out
    },
  )
}

/** A secret: absent or `""` keeps the stored one (forms cannot show it back), null removes it. */
function secret(field: string): Struct<string | null | undefined, null> {
  return coerce(
    define<string | null | undefined>(field, (value) => absent(value) || value === null || (typeof value === 'string' && value.length <= TRACKER_LIMITS.secretMax) || TRACKER_MESSAGES.secret(field)),
    unknown(),
    (value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : value.trim()) : value),
  )
}

/** An optional pattern-checked string; `""` and null clear it (stored as null). */
function clearable(pattern: RegExp, message: string, upper = false): Struct<string | null | undefined, null> {
  return coerce(
    define<string | null | undefined>('pattern', (value) => absent(value) || value === null || (typeof value === 'string' && pattern.test(value)) || message),
    unknown(),
    (value) => (typeof value === 'string' ? (value.trim() === '' ? null : upper ? value.trim().toUpperCase() : value.trim()) : value),
  )
}

/** Body of `PUT ?api=tracker-settings`: a partial update, absent fields keep their value (reference §4.5). */
export const TrackerSettingsInputSchema = type({
  provider: coerce(
    define<TrackerProvider | undefined>('provider', (value) => absent(value) || (typeof value === 'string' && (TRACKER_PROVIDERS as readonly string[]).includes(value)) || TRACKER_MESSAGES.provider),
    unknown(),
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  ),
  enabled: optionalBoolean('enabled'),
  api_key: secret('api_key'),
  webhook_secret: secret('webhook_secret'),
  labels: stringList(TRACKER_LIMITS.labelMax, TRACKER_MESSAGES.labels),
  assigned_to_me: optionalBoolean('assigned_to_me'),
  assignees: stringList(TRACKER_LIMITS.assigneeMax, TRACKER_MESSAGES.assignees, true),
  team_key: clearable(TEAM_KEY_PATTERN, TRACKER_MESSAGES.teamKey, true),
  repository: clearable(REPOSITORY_PATTERN, TRACKER_MESSAGES.repository),
  status_writeback: optionalBoolean('status_writeback'),
  status_writeback_comment: optionalBoolean('status_writeback_comment'),
})
export type TrackerSettingsInput = Infer<typeof TrackerSettingsInputSchema>

/** Body of `POST ?api=tracker-issue`: the Loupe issue to create a tracker issue from. */
export const TrackerPushSchema = type({ id: positiveId(TRACKER_MESSAGES.issueId) })

/** Where a secret comes from (reference §4.5 `api_key_source`). */
export type SecretSource = 'env' | 'stored' | 'none'

/** `GET ?api=tracker-settings`: never a secret, only whether one is set and from where. */
export interface TrackerSettingsView {
  readonly provider: TrackerProvider
  readonly enabled: boolean
  readonly labels: readonly string[]
  readonly assigned_to_me: boolean
  readonly assignees: readonly string[]
  readonly team_key: string | null
  readonly repository: string | null
  readonly status_writeback: boolean
  readonly status_writeback_comment: boolean
  readonly api_key_configured: boolean
  readonly api_key_source: SecretSource
  readonly webhook_configured: boolean
  readonly webhook_secret_source: SecretSource
  readonly at_rest_encrypted: boolean
  readonly env_key_locked: boolean
  readonly env_webhook_locked: boolean
  /** Where the tracker should post its webhooks (`SERVICE_URL` or the request's base, `?api=tracker-webhook&app=…`). */
  readonly webhook_url: string
  readonly sync: TrackerSyncState
  readonly updated_at: string | null
}

/** What the sync remembers between calls (reference §4.5: cursor, backfill_complete, synced_through). */
export interface TrackerSyncState {
  readonly phase: 'backfill' | 'incremental'
  readonly backfill_complete: boolean
  /** The newest `updatedAt` mirrored so far: the floor of incremental passes. */
  readonly synced_through: string | null
  readonly last_synced_at: string | null
}

/** `POST ?api=tracker-test`. */
export interface TrackerTestResult {
  readonly ok: true
  readonly provider: TrackerProvider
  readonly viewer: { readonly id: string; readonly name: string; readonly email: string | null }
}

/** `POST ?api=tracker-sync` (reference §4.5's result). */
export interface TrackerSyncResult {
  readonly ok: true
  readonly provider: TrackerProvider
  readonly pulled: number
  readonly created: number
  readonly updated: number
  readonly tags_created: number
  readonly synced_at: string
  readonly phase: 'backfill' | 'incremental'
  readonly has_more: boolean
  readonly backfill_complete: boolean
}

/** A Loupe issue's tracker issue: one it was created in (push) or one it mirrors (sync). */
export interface TrackerLink {
  readonly provider: TrackerProvider
  readonly external_id: string
  /** `ENG-12` on Linear, `#34` on GitHub. */
  readonly identifier: string
  readonly url: string
  /** The tracker's state name when last seen (`In Progress`, `open`, `closed`). */
  readonly state: string | null
  /** `push`: created from Loupe; `sync`: mirrored from the tracker. */
  readonly via: 'push' | 'sync'
  readonly created_at: string
}

/** `GET ?api=tracker-issue&id=…`. */
export interface TrackerIssueView {
  readonly id: number
  readonly link: TrackerLink | null
}

/** What the `statusChanged` hook adds under `tracker` to the `issue-status` answer. */
export interface TrackerWriteBack {
  readonly written_back: boolean
  readonly state?: string
  readonly commented?: boolean
  readonly reason?: string
}
