import { useState } from 'preact/hooks'
import { ISSUE_STATUSES, MANUAL_ISSUE_KINDS, SEVERITIES } from '../../../shared/constants.ts'
import { ManualIssueInputSchema } from '../../../shared/schemas/issue.ts'
import { check } from '../../../shared/validate.ts'
import { createIssue } from '../api/endpoints.ts'
import { errorsFor, errorsFromFailure, type FieldRules, type FormErrors } from '../lib/field-errors.ts'
import { humanize } from '../lib/format.ts'
import { useCatalog } from '../state/catalog.tsx'
import { navigate } from '../state/url-state.ts'
import { Dialog } from './dialog.tsx'
import { Field, fieldProps } from './field.tsx'
import { Icon } from './icon.tsx'
import { useMutation } from '../state/use-mutation.ts'

type IssueField = 'title' | 'description' | 'kind' | 'severity' | 'status' | 'source_frame' | 'environment' | 'note' | 'tag_ids' | 'module_id'
/** API messages → fields (docs/api.md "errors, issues" POST). */
const RULES: FieldRules<IssueField> = [
  [/^Issue title/, 'title'],
  [/^Issue description/, 'description'],
  [/manual issue kind/, 'kind'],
  [/issue severity/, 'severity'],
  [/issue status/, 'status'],
  [/^Related source/, 'source_frame'],
  [/^Environment/, 'environment'],
  [/^Creation note/, 'note'],
  [/^tag_ids|^Tag \d+/, 'tag_ids'],
  [/^module_id|^Module \d+/, 'module_id'],
]

/** "New issue": a manual issue (a bug, task, idea…) next to the ingested ones. */
export function ManualIssueDialog({ onClose }: { onClose: () => void }) {
  const { tags, modules } = useCatalog()
  const [form, setForm] = useState({ title: '', description: '', kind: 'issue', severity: 'INFO', status: 'open', module_id: '', source_frame: '', environment: 'local', note: '' })
  const [tagIds, setTagIds] = useState<number[]>([])
  const [errors, setErrors] = useState<FormErrors<IssueField>>({})
  const { busy, run } = useMutation()
  const set = (patch: Partial<typeof form>) => setForm({ ...form, ...patch })

  const submit = async (event: Event) => {
    event.preventDefault()
    const input = { ...form, module_id: form.module_id ? Number(form.module_id) : null, tag_ids: tagIds }
    const valid = check(input, ManualIssueInputSchema)
    if (!valid.ok) return setErrors(errorsFor(valid.message, RULES))
    setErrors({})
    await run(() => createIssue(valid.value), {
      done: (created) => {
        onClose()
        navigate({ view: 'issues', issue: created.data.id })
        return `Created issue #${created.data.id}`
      },
      failed: (_, failure) => setErrors(errorsFromFailure(failure, RULES)),
    })
  }

  const text = (field: 'title' | 'source_frame' | 'environment', label: string, hint?: string) => (
    <Field id={`issue-${field}`} label={label} error={errors[field]} hint={hint}>
      <input {...fieldProps(`issue-${field}`, errors[field], hint)} type="text" value={form[field]} onInput={(event) => set({ [field]: event.currentTarget.value })} />
    </Field>
  )
  const choice = (field: 'kind' | 'severity' | 'status', label: string, values: readonly string[]) => (
    <Field id={`issue-${field}`} label={label} error={errors[field]}>
      <select {...fieldProps(`issue-${field}`, errors[field])} value={form[field]} onChange={(event) => set({ [field]: event.currentTarget.value })}>
        {values.map((value) => <option key={value} value={value}>{field === 'severity' ? value : humanize(value)}</option>)}
      </select>
    </Field>
  )

  return (
    <Dialog title="New issue" onClose={onClose} wide>
      <form class="form" onSubmit={submit} noValidate>
        {errors.form && <p class="banner banner-error" role="alert">{errors.form}</p>}
        {text('title', 'Title')}
        <Field id="issue-description" label="Description" error={errors.description}>
          <textarea {...fieldProps('issue-description', errors.description)} rows={4} value={form.description} onInput={(event) => set({ description: event.currentTarget.value })} />
        </Field>
        <div class="form-grid form-grid-3">
          {choice('kind', 'Type', MANUAL_ISSUE_KINDS)}
          {choice('severity', 'Severity', SEVERITIES)}
          {choice('status', 'Status', ISSUE_STATUSES)}
        </div>
        <div class="form-grid">
          <Field id="issue-module_id" label="Module" error={errors.module_id}>
            {/* Issue 17 item 14: a loading state instead of a select that looks as if there were no modules. */}
            <select {...fieldProps('issue-module_id', errors.module_id)} value={form.module_id} disabled={!modules.data} aria-busy={modules.loading} onChange={(event) => set({ module_id: event.currentTarget.value })}>
              <option value="">{modules.data ? 'No module' : modules.error ? 'Modules unavailable' : 'Loading modules…'}</option>
              {(modules.data?.data ?? []).map((module) => <option key={module.id} value={String(module.id)}>{module.name}</option>)}
            </select>
          </Field>
          {text('environment', 'Environment')}
        </div>
        {text('source_frame', 'Related source', 'A file, URL or frame, e.g. app/Http/Controllers/OrderController.php:42')}
        <fieldset class="field" aria-describedby={errors.tag_ids ? 'issue-tags-error' : undefined}>
          <legend>Tags</legend>
          <div class="tag-toggles">
            {(tags.data?.data ?? []).length === 0 && <span class="muted small">No tags yet.</span>}
            {(tags.data?.data ?? []).map((tag) => {
              const on = tagIds.includes(tag.id)
              return (
                <button key={tag.id} type="button" class={on ? 'tag-toggle on' : 'tag-toggle'} style={{ '--tag-color': tag.color }} aria-pressed={on} onClick={() => setTagIds(on ? tagIds.filter((id) => id !== tag.id) : [...tagIds, tag.id])}>
                  <Icon name={tag.icon} size={12} />
                  {tag.name}
                </button>
              )
            })}
          </div>
          {errors.tag_ids && <p class="field-error" id="issue-tags-error" role="alert">{errors.tag_ids}</p>}
        </fieldset>
        <Field id="issue-note" label="Creation note" error={errors.note} hint="Recorded as the first status-history entry.">
          <input {...fieldProps('issue-note', errors.note, 'hint')} type="text" value={form.note} onInput={(event) => set({ note: event.currentTarget.value })} />
        </Field>
        <div class="form-actions">
          <button type="button" class="button button-ghost" onClick={onClose}>Cancel</button>
          <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Creating…' : 'Create issue'}</button>
        </div>
      </form>
    </Dialog>
  )
}
