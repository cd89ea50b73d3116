import { useState } from 'preact/hooks'
import { SEVERITIES, type Severity } from '../../../shared/constants.ts'
import { ALERT_TRIGGERS, type AlertChannel, type AlertPreview, type AlertRule, type AlertRuleInput, type AlertTrigger } from '../../../shared/schemas/alerts.ts'
import { createAlertRule, deleteAlertRule, previewAlertRule, updateAlertRule } from '../api/endpoints.ts'
import type { Module } from '../api/types.ts'
import { useMutation } from '../state/use-mutation.ts'
import { Field, fieldProps } from './field.tsx'

const TRIGGER_LABELS: Record<AlertTrigger, string> = { new_error: 'New issue', reoccurrence: 'Reoccurrence', spike: 'Spike' }

/** What a rule fires on, in words: "Spike ×3 · ERROR, CRITICAL · Billing · at least 5 · cooldown 60 min". */
function describeRule(rule: AlertRule): string {
  const parts = [rule.trigger_type === 'spike' ? `Spike ×${rule.spike_factor}` : TRIGGER_LABELS[rule.trigger_type]]
  parts.push(rule.severities.length ? rule.severities.join(', ') : 'every severity')
  if (rule.module_name) parts.push(rule.module_name)
  if (rule.min_count > 1) parts.push(`at least ${rule.min_count}`)
  parts.push(rule.cooldown_minutes ? `cooldown ${rule.cooldown_minutes} min` : 'no cooldown')
  return parts.join(' · ')
}

/** The rules: what each fires on and where, its switch, edit and delete; a form to add one. */
export function AlertRulesSection({ rules, channels, modules }: { rules: readonly AlertRule[]; channels: readonly AlertChannel[]; modules: readonly Module[] }) {
  const [editing, setEditing] = useState<number | 'new' | null>(null)
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null)
  const { pending, run } = useMutation<string>()
  const toggle = (rule: AlertRule, enabled: boolean) =>
    run(() => updateAlertRule(rule.id, { enabled }), { done: () => `${rule.name} ${enabled ? 'enabled' : 'disabled'}`, failure: 'Could not save' }, `toggle-${rule.id}`)
  const remove = (rule: AlertRule) =>
    run(() => deleteAlertRule(rule.id), { done: () => `Deleted ${rule.name}`, failure: 'Could not delete', settled: () => setConfirmDelete(null) }, `delete-${rule.id}`)

  return (
    <section class="panel settings-panel" aria-labelledby="alert-rules-heading" data-testid="alert-rules">
      <h2 id="alert-rules-heading" class="panel-title">Alert rules</h2>
      <p class="muted">Checked after every import and ingest. Each rule sends at most one message per check, listing up to five issues.</p>
      {rules.length > 0 && (
        <ul class="plugin-list">
          {rules.map((rule) =>
            editing === rule.id ? (
              <li key={rule.id} class="plugin-item">
                <RuleForm rule={rule} channels={channels} modules={modules} onDone={() => setEditing(null)} />
              </li>
            ) : (
              <li key={rule.id} class="plugin-item" data-rule={rule.name}>
                <div class="plugin-text">
                  <strong>{rule.name}</strong> <span class="muted small">→ {rule.channel_name}</span>
                  <p class="muted small">{describeRule(rule)}</p>
                  {rule.last_triggered_at && <p class="muted small">Last sent {rule.last_triggered_at} UTC</p>}
                </div>
                <div class="row-actions">
                  <button type="button" class="button button-small button-ghost" onClick={() => setEditing(rule.id)}>Edit</button>
                  {confirmDelete === rule.id ? (
                    <span class="inline-confirm" role="group" aria-label={`Confirm deleting ${rule.name}`}>
                      <button type="button" class="button button-small button-danger" disabled={pending !== null} onClick={() => void remove(rule)}>Delete rule</button>
                      <button type="button" class="button button-small button-ghost" onClick={() => setConfirmDelete(null)}>Cancel</button>
                    </span>
                  ) : (
                    <button type="button" class="button button-small button-ghost" onClick={() => setConfirmDelete(rule.id)}>Delete…</button>
                  )}
                  <label class="plugin-switch">
                    <input type="checkbox" role="switch" checked={rule.enabled} disabled={pending !== null} aria-label={`${rule.name} enabled`} onChange={(event) => void toggle(rule, event.currentTarget.checked)} />
                    {rule.enabled ? 'On' : 'Off'}
                  </label>
                </div>
              </li>
            ),
          )}
        </ul>
      )}
      {channels.length === 0 ? (
        <p class="muted">Add a channel first: rules send to one.</p>
      ) : editing === 'new' ? (
        <RuleForm channels={channels} modules={modules} onDone={() => setEditing(null)} />
      ) : (
        <button type="button" class="button button-primary section-action" onClick={() => setEditing('new')}>Add rule</button>
      )}
    </section>
  )
}

/** Add a rule, or edit one; the spike factor shows only for spike rules. */
function RuleForm({ rule, channels, modules, onDone }: { rule?: AlertRule; channels: readonly AlertChannel[]; modules: readonly Module[]; onDone: () => void }) {
  const [name, setName] = useState(rule?.name ?? '')
  const [channelId, setChannelId] = useState(rule?.channel_id ?? channels[0]!.id)
  const [trigger, setTrigger] = useState<AlertTrigger>(rule?.trigger_type ?? 'new_error')
  const [severities, setSeverities] = useState<readonly Severity[]>(rule?.severities ?? [])
  const [moduleId, setModuleId] = useState<number | null>(rule?.module_id ?? null)
  const [minCount, setMinCount] = useState(String(rule?.min_count ?? 1))
  const [spikeFactor, setSpikeFactor] = useState(String(rule?.spike_factor ?? 3))
  const [cooldown, setCooldown] = useState(String(rule?.cooldown_minutes ?? 60))
  const [error, setError] = useState<string>()
  const [preview, setPreview] = useState<AlertPreview | null>(null)
  const { busy, run } = useMutation()
  const prefix = rule ? `rule-${rule.id}` : 'rule-new'
  const input = (): AlertRuleInput => ({
    name,
    channel_id: channelId,
    trigger_type: trigger,
    severities: [...severities],
    module_id: moduleId,
    min_count: Number(minCount),
    spike_factor: Number(spikeFactor),
    cooldown_minutes: Number(cooldown),
    enabled: rule?.enabled ?? true,
  })
  const showPreview = () => {
    setError(undefined)
    run(() => previewAlertRule(input()), { done: (result) => void setPreview(result), failed: setError, invalidate: false })
  }
  const submit = (event: Event) => {
    event.preventDefault()
    setError(undefined)
    run(() => (rule ? updateAlertRule(rule.id, input()) : createAlertRule(input())), {
      done: (saved) => {
        onDone()
        return `${rule ? 'Saved' : 'Added'} ${saved.name}`
      },
      failed: setError,
    })
  }
  return (
    <form class="alert-form" onSubmit={submit} aria-label={rule ? `Edit ${rule.name}` : 'New rule'}>
      <Field id={`${prefix}-name`} label="Name">
        <input {...fieldProps(`${prefix}-name`)} value={name} maxLength={120} required onInput={(event) => setName(event.currentTarget.value)} />
      </Field>
      <Field id={`${prefix}-trigger`} label="When">
        <select id={`${prefix}-trigger`} value={trigger} onChange={(event) => setTrigger(event.currentTarget.value as AlertTrigger)}>
          {ALERT_TRIGGERS.map((value) => (
            <option key={value} value={value}>{TRIGGER_LABELS[value]}</option>
          ))}
        </select>
      </Field>
      <Field id={`${prefix}-channel`} label="Send to">
        <select id={`${prefix}-channel`} value={channelId} onChange={(event) => setChannelId(Number(event.currentTarget.value))}>
          {channels.map((channel) => (
            <option key={channel.id} value={channel.id}>{channel.name}</option>
          ))}
        </select>
      </Field>
      <fieldset class="field">
        <legend>Severities (none chosen: every severity)</legend>
        <div class="chips" role="group" aria-label="Severities">
          {SEVERITIES.map((severity) => {
            const on = severities.includes(severity)
            return (
              <button key={severity} type="button" class={on ? `chip on severity-chip-${severity.toLowerCase()}` : 'chip'} aria-pressed={on} onClick={() => setSeverities(on ? severities.filter((value) => value !== severity) : SEVERITIES.filter((value) => value === severity || severities.includes(value)))}>
                {severity}
              </button>
            )
          })}
        </div>
      </fieldset>
      <Field id={`${prefix}-module`} label="Module">
        <select id={`${prefix}-module`} value={moduleId ?? ''} onChange={(event) => setModuleId(event.currentTarget.value ? Number(event.currentTarget.value) : null)}>
          <option value="">Every module</option>
          {modules.map((module) => (
            <option key={module.id} value={module.id}>{module.name}</option>
          ))}
        </select>
      </Field>
      <div class="alert-form-numbers">
        <Field id={`${prefix}-min`} label="At least (occurrences)">
          <input {...fieldProps(`${prefix}-min`)} type="number" min={1} step={1} value={minCount} onInput={(event) => setMinCount(event.currentTarget.value)} />
        </Field>
        {trigger === 'spike' && (
          <Field id={`${prefix}-factor`} label="Spike factor (× hourly baseline)">
            <input {...fieldProps(`${prefix}-factor`)} type="number" min={1.5} step={0.5} value={spikeFactor} onInput={(event) => setSpikeFactor(event.currentTarget.value)} />
          </Field>
        )}
        <Field id={`${prefix}-cooldown`} label="Cooldown (minutes)">
          <input {...fieldProps(`${prefix}-cooldown`)} type="number" min={0} step={1} value={cooldown} onInput={(event) => setCooldown(event.currentTarget.value)} />
        </Field>
      </div>
      {error && <p class="field-error" role="alert">{error}</p>}
      {preview && (
        <div class="alert-preview" role="status" data-testid="alert-preview">
          <strong>Last 24 h{trigger === 'spike' ? ' (spiking now)' : ''}: {preview.count === 0 ? 'nothing would have been sent' : preview.summary}</strong>
          {preview.items.length > 0 && (
            <ul>
              {preview.items.map((item) => (
                <li key={item.title}>[{item.severity}] {item.title} ({item.count}×)</li>
              ))}
              {preview.more > 0 && <li class="muted">…and {preview.more} more</li>}
            </ul>
          )}
        </div>
      )}
      <div class="form-actions">
        <button type="button" class="button button-ghost" onClick={showPreview} disabled={busy}>Preview last 24 h</button>
        <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Saving…' : rule ? 'Save rule' : 'Add rule'}</button>
        <button type="button" class="button button-ghost" onClick={onDone} disabled={busy}>Cancel</button>
      </div>
    </form>
  )
}
