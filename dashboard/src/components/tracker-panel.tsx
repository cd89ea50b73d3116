import { useState } from 'preact/hooks'
import { TRACKER_NAMES, TRACKER_PROVIDERS, type TrackerProvider, type TrackerSettingsView, type SecretSource } from '../../../shared/schemas/tracker.ts'
import { ApiError, errorMessage } from '../api/api-error.ts'
import { getTrackerSettings, saveTrackerSettings, syncTracker, testTracker } from '../api/endpoints.ts'
import { useApi } from '../state/use-api.ts'
import { useMutation } from '../state/use-mutation.ts'
import { navigate } from '../state/url-state.ts'
import { ErrorBanner } from './error-banner.tsx'
import { Field, fieldProps } from './field.tsx'
import { CopyValue } from './ingest-panel.tsx'
import { Spinner } from './spinner.tsx'

const SOURCE_TEXT: Record<SecretSource, string> = { env: 'set by the environment', stored: 'stored, encrypted', none: 'not set' }

/**
 * Settings → Tracker (issue 16, docs/tracker.md): the provider, its credentials (never shown back, only whether
 * they are set and from where), the sync filters, write-back, the webhook address to copy, and "Test" and
 * "Sync now" with their results. While the plugin is off the panel says so and links to Plugins.
 */
export function TrackerPanel({ app }: { app: string }) {
  const settings = useApi(`tracker-settings:${app}`, getTrackerSettings)
  if (settings.error instanceof ApiError && settings.error.status === 404) {
    return (
      <section class="panel settings-panel" aria-labelledby="tracker-heading">
        <h2 id="tracker-heading" class="panel-title">Issue tracker</h2>
        <p class="muted">The issue-tracker plugin is off for this application.</p>
        <button type="button" class="button button-primary" onClick={() => navigate({ tab: 'plugins' })}>Switch it on in Plugins</button>
      </section>
    )
  }
  if (settings.error) return <ErrorBanner error={settings.error} onRetry={settings.reload} context="Tracker settings unavailable" />
  if (!settings.data) return <Spinner />
  return (
    <>
      <TrackerForm key={settings.data.updated_at ?? 'new'} settings={settings.data} />
      <TrackerActions settings={settings.data} />
    </>
  )
}

const list = (text: string) => text.split(',').map((item) => item.trim()).filter(Boolean)

function TrackerForm({ settings }: { settings: TrackerSettingsView }) {
  const [provider, setProvider] = useState<TrackerProvider>(settings.provider)
  const [enabled, setEnabled] = useState(settings.enabled)
  const [apiKey, setApiKey] = useState('')
  const [webhookSecret, setWebhookSecret] = useState('')
  const [labels, setLabels] = useState(settings.labels.join(', '))
  const [assignedToMe, setAssignedToMe] = useState(settings.assigned_to_me)
  const [assignees, setAssignees] = useState(settings.assignees.join(', '))
  const [teamKey, setTeamKey] = useState(settings.team_key ?? '')
  const [repository, setRepository] = useState(settings.repository ?? '')
  const [writeback, setWriteback] = useState(settings.status_writeback)
  const [comment, setComment] = useState(settings.status_writeback_comment)
  const [error, setError] = useState<string>()
  const { busy, run } = useMutation()
  const name = TRACKER_NAMES[provider]

  const submit = (event: Event) => {
    event.preventDefault()
    setError(undefined)
    run(
      () =>
        saveTrackerSettings({
          provider,
          enabled,
          ...(apiKey && !settings.env_key_locked ? { api_key: apiKey } : {}),
          ...(webhookSecret && !settings.env_webhook_locked ? { webhook_secret: webhookSecret } : {}),
          labels: list(labels),
          assigned_to_me: assignedToMe,
          assignees: list(assignees),
          team_key: provider === 'linear' ? teamKey : undefined,
          repository: provider === 'github' ? repository : undefined,
          status_writeback: writeback,
          status_writeback_comment: comment,
        }),
      { done: () => 'Tracker settings saved', failed: setError },
    )
  }
  const secretHint = (source: SecretSource, locked: boolean) =>
    locked ? 'Set by the environment; it cannot be changed here.' : `Currently ${SOURCE_TEXT[source]}. ${source === 'stored' ? 'Leave empty to keep it.' : ''}`.trim()

  return (
    <section class="panel settings-panel" aria-labelledby="tracker-heading" data-testid="tracker-settings">
      <h2 id="tracker-heading" class="panel-title">Issue tracker</h2>
      <p class="muted">Mirror {name} issues into Loupe, write status changes back, and create {name} issues from Loupe issues.</p>
      <form class="alert-form" onSubmit={submit} aria-label="Tracker settings">
        <Field id="tracker-provider" label="Provider">
          <select id="tracker-provider" value={provider} onChange={(event) => setProvider(event.currentTarget.value as TrackerProvider)}>
            {TRACKER_PROVIDERS.map((value) => (
              <option key={value} value={value}>{TRACKER_NAMES[value]}</option>
            ))}
          </select>
        </Field>
        <Field id="tracker-key" label={provider === 'github' ? 'GitHub token' : 'Linear API key'} hint={secretHint(settings.api_key_source, settings.env_key_locked)}>
          <input {...fieldProps('tracker-key', undefined, 'hint')} type="password" autocomplete="off" value={apiKey} disabled={settings.env_key_locked} onInput={(event) => setApiKey(event.currentTarget.value)} />
        </Field>
        <Field id="tracker-webhook-secret" label="Webhook secret" hint={secretHint(settings.webhook_secret_source, settings.env_webhook_locked)}>
          <input {...fieldProps('tracker-webhook-secret', undefined, 'hint')} type="password" autocomplete="off" value={webhookSecret} disabled={settings.env_webhook_locked} onInput={(event) => setWebhookSecret(event.currentTarget.value)} />
        </Field>
        {provider === 'linear' ? (
          <Field id="tracker-team" label="Team key" hint="Such as ENG. Needed to create Linear issues.">
            <input {...fieldProps('tracker-team', undefined, 'hint')} value={teamKey} maxLength={20} onInput={(event) => setTeamKey(event.currentTarget.value)} />
          </Field>
        ) : (
          <Field id="tracker-repository" label="Repository" hint="owner/name">
            <input {...fieldProps('tracker-repository', undefined, 'hint')} value={repository} onInput={(event) => setRepository(event.currentTarget.value)} />
          </Field>
        )}
        <Field id="tracker-labels" label="Labels" hint={provider === 'github' ? 'Comma-separated; an issue must carry all of them.' : 'Comma-separated; an issue with any of them is synced.'}>
          <input {...fieldProps('tracker-labels', undefined, 'hint')} value={labels} onInput={(event) => setLabels(event.currentTarget.value)} />
        </Field>
        <Field id="tracker-assignees" label="Assignees" hint={provider === 'github' ? 'Comma-separated GitHub logins.' : 'Comma-separated emails or Linear user ids.'}>
          <input {...fieldProps('tracker-assignees', undefined, 'hint')} value={assignees} onInput={(event) => setAssignees(event.currentTarget.value)} />
        </Field>
        <label class="checkbox-row"><input type="checkbox" checked={assignedToMe} onChange={(event) => setAssignedToMe(event.currentTarget.checked)} /> Issues assigned to me</label>
        <label class="checkbox-row"><input type="checkbox" checked={writeback} onChange={(event) => setWriteback(event.currentTarget.checked)} /> Write status changes back to {name}</label>
        <label class="checkbox-row"><input type="checkbox" checked={comment} onChange={(event) => setComment(event.currentTarget.checked)} /> Comment on the {name} issue when writing back</label>
        <label class="checkbox-row"><input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.currentTarget.checked)} /> Integration enabled</label>
        {error && <p class="field-error" role="alert">{error}</p>}
        <div class="form-actions">
          <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Saving…' : 'Save tracker settings'}</button>
        </div>
      </form>
    </section>
  )
}

function TrackerActions({ settings }: { settings: TrackerSettingsView }) {
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null)
  const { pending, run } = useMutation<'test' | 'sync'>()
  const name = TRACKER_NAMES[settings.provider]
  const test = () =>
    run(() => testTracker(), { done: (answer) => void setResult({ ok: true, text: `Connected to ${name} as ${answer.viewer.name}${answer.viewer.email ? ` (${answer.viewer.email})` : ''}.` }), failed: (message) => setResult({ ok: false, text: message }), invalidate: false }, 'test')
  const sync = () =>
    run(
      () => syncTracker(),
      {
        done: (answer) =>
          void setResult({ ok: true, text: `Synced ${answer.pulled} issue${answer.pulled === 1 ? '' : 's'}: ${answer.created} new, ${answer.updated} updated, ${answer.tags_created} new tags${answer.has_more ? ' — more to pull, sync again' : ''}.` }),
        failed: (message, failure) => setResult({ ok: false, text: failure instanceof ApiError ? message : errorMessage(failure) }),
      },
      'sync',
    )
  return (
    <section class="panel settings-panel" aria-labelledby="tracker-status-heading" data-testid="tracker-actions">
      <h2 id="tracker-status-heading" class="panel-title">Connection and sync</h2>
      <dl class="facts ingest-facts">
        <div class="fact"><dt>Credentials</dt><dd>API key {SOURCE_TEXT[settings.api_key_source]}; webhook secret {SOURCE_TEXT[settings.webhook_secret_source]}</dd></div>
        <div class="fact"><dt>Webhook URL</dt><dd><CopyValue label="webhook URL" value={settings.webhook_url} /></dd></div>
        <div class="fact"><dt>Sync</dt><dd>{settings.sync.backfill_complete ? `Incremental, through ${settings.sync.synced_through ?? '—'}` : 'Backfill not finished'}{settings.sync.last_synced_at ? ` · last run ${settings.sync.last_synced_at} UTC` : ''}</dd></div>
      </dl>
      <div class="form-actions">
        <button type="button" class="button" disabled={pending !== null || !settings.api_key_configured} onClick={() => void test()}>{pending === 'test' ? 'Testing…' : 'Test connection'}</button>
        <button type="button" class="button button-primary" disabled={pending !== null || !settings.enabled} onClick={() => void sync()}>{pending === 'sync' ? 'Syncing…' : 'Sync now'}</button>
      </div>
      {result && <p class={result.ok ? 'small test-ok' : 'field-error small'} role="status">{result.text}</p>}
    </section>
  )
}
