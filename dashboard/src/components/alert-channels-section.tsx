import { useState } from 'preact/hooks'
import { ALERT_CHANNEL_TYPES, type AlertChannel, type AlertChannelType } from '../../../shared/schemas/alerts.ts'
import { createAlertChannel, deleteAlertChannel, testAlertChannel, updateAlertChannel } from '../api/endpoints.ts'
import { useMutation } from '../state/use-mutation.ts'
import { Field, fieldProps } from './field.tsx'

const TYPE_LABELS: Record<AlertChannelType, string> = { slack: 'Slack', discord: 'Discord', webhook: 'Webhook' }

/** The channels: each with its switch, "Send test" (result shown beside it), edit and delete; a form to add one. */
export function AlertChannelsSection({ channels }: { channels: readonly AlertChannel[] }) {
  const [editing, setEditing] = useState<number | 'new' | null>(channels.length === 0 ? 'new' : null)
  const [results, setResults] = useState<Record<number, { ok: boolean; detail: string }>>({})
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null)
  const { pending, run } = useMutation<string>()

  const test = (channel: AlertChannel) =>
    run(() => testAlertChannel(channel.id), { done: (result) => void setResults((all) => ({ ...all, [channel.id]: result })), invalidate: false, failure: 'Test failed' }, `test-${channel.id}`)
  const toggle = (channel: AlertChannel, enabled: boolean) =>
    run(() => updateAlertChannel(channel.id, { enabled }), { done: () => `${channel.name} ${enabled ? 'enabled' : 'disabled'}`, failure: 'Could not save' }, `toggle-${channel.id}`)
  const remove = (channel: AlertChannel) =>
    run(() => deleteAlertChannel(channel.id), { done: () => `Deleted ${channel.name} and its rules`, failure: 'Could not delete', settled: () => setConfirmDelete(null) }, `delete-${channel.id}`)

  return (
    <section class="panel settings-panel" aria-labelledby="alert-channels-heading" data-testid="alert-channels">
      <h2 id="alert-channels-heading" class="panel-title">Alert channels</h2>
      <p class="muted">Where alerts go. URLs are stored encrypted and never shown again; only their host is.</p>
      {channels.length > 0 && (
        <ul class="plugin-list">
          {channels.map((channel) =>
            editing === channel.id ? (
              <li key={channel.id} class="plugin-item">
                <ChannelForm channel={channel} onDone={() => setEditing(null)} />
              </li>
            ) : (
              <li key={channel.id} class="plugin-item" data-channel={channel.name}>
                <div class="plugin-text">
                  <strong>{channel.name}</strong> <span class="badge badge-muted">{TYPE_LABELS[channel.type]}</span>
                  <p class="muted small">{channel.target_hint}</p>
                  {results[channel.id] && (
                    <p class={results[channel.id]!.ok ? 'small test-ok' : 'field-error small'} role="status">
                      Test {results[channel.id]!.ok ? 'delivered' : 'failed'}: {results[channel.id]!.detail}
                    </p>
                  )}
                </div>
                <div class="row-actions">
                  <button type="button" class="button button-small" disabled={pending !== null} onClick={() => void test(channel)}>
                    {pending === `test-${channel.id}` ? 'Sending…' : 'Send test'}
                  </button>
                  <button type="button" class="button button-small button-ghost" onClick={() => setEditing(channel.id)}>Edit</button>
                  {confirmDelete === channel.id ? (
                    <span class="inline-confirm" role="group" aria-label={`Confirm deleting ${channel.name}`}>
                      <button type="button" class="button button-small button-danger" disabled={pending !== null} onClick={() => void remove(channel)}>Delete with its rules</button>
                      <button type="button" class="button button-small button-ghost" onClick={() => setConfirmDelete(null)}>Cancel</button>
                    </span>
                  ) : (
                    <button type="button" class="button button-small button-ghost" onClick={() => setConfirmDelete(channel.id)}>Delete…</button>
                  )}
                  <label class="plugin-switch">
                    <input type="checkbox" role="switch" checked={channel.enabled} disabled={pending !== null} aria-label={`${channel.name} enabled`} onChange={(event) => void toggle(channel, event.currentTarget.checked)} />
                    {channel.enabled ? 'On' : 'Off'}
                  </label>
                </div>
              </li>
            ),
          )}
        </ul>
      )}
      {editing === 'new' ? (
        <ChannelForm onDone={() => setEditing(null)} />
      ) : (
        <button type="button" class="button button-primary section-action" onClick={() => setEditing('new')}>Add channel</button>
      )}
    </section>
  )
}

/** Add a channel, or edit one (its URL left empty keeps the stored one). */
function ChannelForm({ channel, onDone }: { channel?: AlertChannel; onDone: () => void }) {
  const [name, setName] = useState(channel?.name ?? '')
  const [type, setType] = useState<AlertChannelType>(channel?.type ?? 'slack')
  const [url, setUrl] = useState('')
  const [error, setError] = useState<string>()
  const { busy, run } = useMutation()
  const prefix = channel ? `channel-${channel.id}` : 'channel-new'
  const submit = (event: Event) => {
    event.preventDefault()
    setError(undefined)
    const input = { name, type, url }
    run(() => (channel ? updateAlertChannel(channel.id, input) : createAlertChannel(input)), {
      done: (saved) => {
        onDone()
        return `${channel ? 'Saved' : 'Added'} ${saved.name}`
      },
      failed: setError,
    })
  }
  return (
    <form class="alert-form" onSubmit={submit} aria-label={channel ? `Edit ${channel.name}` : 'New channel'}>
      <Field id={`${prefix}-name`} label="Name">
        <input {...fieldProps(`${prefix}-name`)} value={name} maxLength={120} required onInput={(event) => setName(event.currentTarget.value)} />
      </Field>
      <Field id={`${prefix}-type`} label="Type">
        <select id={`${prefix}-type`} value={type} onChange={(event) => setType(event.currentTarget.value as AlertChannelType)}>
          {ALERT_CHANNEL_TYPES.map((value) => (
            <option key={value} value={value}>{TYPE_LABELS[value]}</option>
          ))}
        </select>
      </Field>
      <Field id={`${prefix}-url`} label="Webhook URL" error={error} hint={channel ? `Leave empty to keep the current URL (${channel.target_hint}).` : 'https:// only; private and internal addresses are refused.'}>
        <input {...fieldProps(`${prefix}-url`, error, 'hint')} type="url" value={url} required={!channel} placeholder="https://hooks.slack.com/services/…" onInput={(event) => setUrl(event.currentTarget.value)} />
      </Field>
      <div class="form-actions">
        <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Saving…' : channel ? 'Save channel' : 'Add channel'}</button>
        <button type="button" class="button button-ghost" onClick={onDone} disabled={busy}>Cancel</button>
      </div>
    </form>
  )
}
