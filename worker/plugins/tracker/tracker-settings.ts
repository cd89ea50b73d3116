import { namedBatch } from '../../../drivers/named-batch.ts'
import { TRACKER_MESSAGES, TRACKER_NAMES, type SecretSource, type TrackerProvider, type TrackerSettingsInput, type TrackerSettingsView } from '../../../shared/schemas/tracker.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { InvalidInputError } from '../../errors.ts'
import { appSettings, settingValue } from '../../settings/app-settings.ts'
import { toTimestamp } from '../../time.ts'
import type { TrackerContext } from './tracker-context.ts'
import type { TrackerFilters } from './tracker.ts'
import { SYNC_SETTING, readSyncState, syncStateView, type SyncState } from './tracker-sync-state.ts'

/** Where the integration's settings live (reference §4.5: app_settings `linear.integration`). */
export const INTEGRATION_SETTING = 'tracker.integration'

/** The stored settings: filters and switches in clear, the two secrets sealed with SERVICE_SECRET. */
export interface StoredIntegration {
  readonly provider: TrackerProvider
  readonly enabled: boolean
  readonly labels: readonly string[]
  readonly assigned_to_me: boolean
  readonly assignees: readonly string[]
  readonly team_key: string | null
  readonly repository: string | null
  readonly status_writeback: boolean
  readonly status_writeback_comment: boolean
  readonly api_key_sealed: string | null
  readonly webhook_secret_sealed: string | null
  readonly updated_at: string | null
}

const DEFAULTS: StoredIntegration = {
  provider: 'linear',
  enabled: false,
  labels: [],
  assigned_to_me: false,
  assignees: [],
  team_key: null,
  repository: null,
  status_writeback: false,
  status_writeback_comment: true,
  api_key_sealed: null,
  webhook_secret_sealed: null,
  updated_at: null,
}

/** The sealing contexts: a sealed value copied to another application or setting does not open there. */
export const apiKeyContext = (scope: AppScope) => `app:${scope.app.id}:tracker.api_key`
export const webhookSecretContext = (scope: AppScope) => `app:${scope.app.id}:tracker.webhook_secret`

/** The settings and the sync state, in one round trip. */
export async function loadIntegration(scope: AppScope): Promise<{ integration: StoredIntegration; sync: SyncState }> {
  const { integration, sync } = await namedBatch(scope.db, { integration: appSettings.read(scope, INTEGRATION_SETTING), sync: appSettings.read(scope, SYNC_SETTING) })
  return { integration: decodeIntegration(settingValue(integration.rows)), sync: readSyncState(settingValue(sync.rows)) }
}

export function decodeIntegration(raw: string | null): StoredIntegration {
  if (raw === null) return DEFAULTS
  try {
    const parsed = JSON.parse(raw) as Partial<StoredIntegration>
    return { ...DEFAULTS, ...parsed, provider: parsed.provider && parsed.provider in TRACKER_NAMES ? parsed.provider : DEFAULTS.provider }
  } catch {
    return DEFAULTS
  }
}

export function filtersOf(integration: StoredIntegration): TrackerFilters {
  return {
    labels: integration.labels,
    assignedToMe: integration.assigned_to_me,
    assignees: integration.assignees,
    teamKey: integration.team_key,
    repository: integration.repository,
  }
}

/** `GET ?api=tracker-settings` (reference §4.5's shape, plus the provider, the webhook address and the sync state). */
export async function getTrackerSettings(context: TrackerContext): Promise<TrackerSettingsView> {
  const { integration, sync } = await loadIntegration(context.scope)
  return settingsView(context, integration, sync)
}

/**
 * `PUT ?api=tracker-settings`: a partial update (reference §4.5). Secrets are sealed; absent or empty keeps
 * them, null removes them; one set by the environment cannot be changed here. Enabling needs a key. Changing
 * the provider or a filter starts the sync over (a new backfill), in the same write.
 */
export async function updateTrackerSettings(context: TrackerContext, input: TrackerSettingsInput): Promise<TrackerSettingsView> {
  const { scope } = context
  const { integration: current, sync } = await loadIntegration(scope)
  const provider = input.provider ?? current.provider
  const name = TRACKER_NAMES[provider]
  if (input.api_key !== undefined && context.env.apiKey) throw new InvalidInputError(TRACKER_MESSAGES.envLocked(`${name} API key`, 'TRACKER_API_KEY'))
  if (input.webhook_secret !== undefined && context.env.webhookSecret) throw new InvalidInputError(TRACKER_MESSAGES.envLocked(`${name} webhook secret`, 'TRACKER_WEBHOOK_SECRET'))
  const now = toTimestamp(context.now)
  const next: StoredIntegration = {
    provider,
    enabled: input.enabled ?? current.enabled,
    labels: input.labels ?? current.labels,
    assigned_to_me: input.assigned_to_me ?? current.assigned_to_me,
    assignees: input.assignees ?? current.assignees,
    team_key: input.team_key === undefined ? current.team_key : input.team_key,
    repository: input.repository === undefined ? current.repository : input.repository,
    status_writeback: input.status_writeback ?? current.status_writeback,
    status_writeback_comment: input.status_writeback_comment ?? current.status_writeback_comment,
    api_key_sealed: input.api_key === undefined ? current.api_key_sealed : input.api_key === null ? null : await context.secrets.seal(input.api_key, apiKeyContext(scope)),
    webhook_secret_sealed:
      input.webhook_secret === undefined ? current.webhook_secret_sealed : input.webhook_secret === null ? null : await context.secrets.seal(input.webhook_secret, webhookSecretContext(scope)),
    updated_at: now,
  }
  if (next.enabled && !context.env.apiKey && next.api_key_sealed === null) throw new InvalidInputError(TRACKER_MESSAGES.keyRequired(name, 'TRACKER_API_KEY'))
  const restart = provider !== current.provider || !sameFilters(filtersOf(current), filtersOf(next))
  const { sync: kept } = await namedBatch(scope.db, {
    write: appSettings.write(scope, INTEGRATION_SETTING, JSON.stringify(next), now),
    reset: restart ? appSettings.remove(scope, SYNC_SETTING) : null,
    sync: appSettings.read(scope, SYNC_SETTING),
  })
  return settingsView(context, next, restart ? readSyncState(settingValue(kept.rows)) : sync)
}

function sameFilters(a: TrackerFilters, b: TrackerFilters): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

function settingsView(context: TrackerContext, integration: StoredIntegration, sync: SyncState): TrackerSettingsView {
  const keySource: SecretSource = context.env.apiKey ? 'env' : integration.api_key_sealed ? 'stored' : 'none'
  const webhookSource: SecretSource = context.env.webhookSecret ? 'env' : integration.webhook_secret_sealed ? 'stored' : 'none'
  return {
    provider: integration.provider,
    enabled: integration.enabled,
    labels: integration.labels,
    assigned_to_me: integration.assigned_to_me,
    assignees: integration.assignees,
    team_key: integration.team_key,
    repository: integration.repository,
    status_writeback: integration.status_writeback,
    status_writeback_comment: integration.status_writeback_comment,
    api_key_configured: keySource !== 'none',
    api_key_source: keySource,
    webhook_configured: webhookSource !== 'none',
    webhook_secret_source: webhookSource,
    at_rest_encrypted: context.hasSecret,
    env_key_locked: context.env.apiKey !== null,
    env_webhook_locked: context.env.webhookSecret !== null,
    webhook_url: `${context.baseUrl.replace(/\/+$/, '')}/?api=tracker-webhook&app=${encodeURIComponent(context.scope.app.id)}`,
    sync: syncStateView(sync),
    updated_at: integration.updated_at,
  }
}

/** The API key in use: the environment's, else the stored one opened; null when there is none. */
export async function openApiKey(context: TrackerContext, integration: StoredIntegration): Promise<string | null> {
  if (context.env.apiKey) return context.env.apiKey
  return integration.api_key_sealed ? context.secrets.open(integration.api_key_sealed, apiKeyContext(context.scope)) : null
}

/** The webhook secret in use, like `openApiKey`. */
export async function openWebhookSecret(context: TrackerContext, integration: StoredIntegration): Promise<string | null> {
  if (context.env.webhookSecret) return context.env.webhookSecret
  return integration.webhook_secret_sealed ? context.secrets.open(integration.webhook_secret_sealed, webhookSecretContext(context.scope)) : null
}
