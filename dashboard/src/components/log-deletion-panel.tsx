import { useState } from 'preact/hooks'
import { deleteLogs, listSources, previewDeletion } from '../api/endpoints.ts'
import type { DeletionPreview, DeletionScope } from '../api/types.ts'
import { basename, plural } from '../lib/format.ts'
import { useApi } from '../state/use-api.ts'
import { Field, fieldProps } from './field.tsx'
import { useMutation } from '../state/use-mutation.ts'

const CONFIRMATION = 'DELETE LOGS'

/**
 * Deletes indexed log events by calendar day or by source file (reference §3.6): review the counts first,
 * then type DELETE LOGS. Raw files and import checkpoints stay.
 */
export function LogDeletionPanel({ app }: { app: string }) {
  const sources = useApi(`deletion-sources:${app}`, (signal) => previewSources(signal))
  const [kind, setKind] = useState<'date' | 'source'>('date')
  const [date, setDate] = useState('')
  const [sourceId, setSourceId] = useState('')
  const [preview, setPreview] = useState<{ scope: DeletionScope; result: DeletionPreview } | null>(null)
  const [typed, setTyped] = useState('')
  const [error, setError] = useState('')
  const { busy, run } = useMutation()

  const scope: DeletionScope | null = kind === 'date' ? (date ? { date } : null) : sourceId ? { source_id: Number(sourceId) } : null
  const review = async (event: Event) => {
    event.preventDefault()
    if (!scope) return setError(kind === 'date' ? 'Choose a day.' : 'Choose a source.')
    setError('')
    setTyped('')
    await run(() => previewDeletion(scope), {
      done: (result) => void setPreview({ scope, result }),
      failed: (message) => {
        setPreview(null)
        setError(message)
      },
      invalidate: false,
    })
  }
  const confirm = async (event: Event) => {
    event.preventDefault()
    if (!preview) return
    setError('')
    await run(() => deleteLogs(preview.scope, typed), {
      done: (result) => {
        setPreview(null)
        setTyped('')
        return `Deleted ${plural(result.deleted.occurrences, 'event')} and ${plural(result.deleted.empty_issue_groups, 'empty issue')}`
      },
      failed: setError,
    })
  }

  return (
    <section class="panel settings-panel" aria-labelledby="deletion-heading">
      <h2 id="deletion-heading" class="panel-title">Delete indexed logs</h2>
      <p class="muted">Removes the stored events of one day or one source file and recomputes their issues. Raw files stay in the archive, so a reindex can bring them back.</p>
      <form class="form" onSubmit={review}>
        <div class="segmented" role="radiogroup" aria-label="Deletion scope">
          {(['date', 'source'] as const).map((value) => (
            <label key={value} class={kind === value ? 'segment active' : 'segment'}>
              <input type="radio" name="deletion-kind" value={value} checked={kind === value} onChange={() => { setKind(value); setPreview(null) }} />
              {value === 'date' ? 'By day' : 'By source'}
            </label>
          ))}
        </div>
        {kind === 'date' ? (
          <Field id="deletion-date" label="Day (UTC)">
            <input {...fieldProps('deletion-date')} type="date" value={date} onChange={(event) => { setDate(event.currentTarget.value); setPreview(null) }} />
          </Field>
        ) : (
          <Field id="deletion-source" label="Source file">
            {/* Issue 17 item 14: while the list loads the select says so instead of looking empty. */}
            <select {...fieldProps('deletion-source')} value={sourceId} disabled={!sources.data} aria-busy={sources.loading} onChange={(event) => { setSourceId(event.currentTarget.value); setPreview(null) }}>
              <option value="">{sources.data ? 'Choose a source…' : sources.error ? 'Sources unavailable' : 'Loading sources…'}</option>
              {(sources.data ?? []).map((file) => <option key={file.id} value={String(file.id)}>{basename(file.path)} — {file.path}</option>)}
            </select>
          </Field>
        )}
        <div class="form-actions form-actions-start">
          <button type="submit" class="button" disabled={busy || !scope}>Review deletion</button>
        </div>
      </form>
      {preview && (
        <form class="form deletion-confirm" onSubmit={confirm} data-testid="deletion-preview">
          <div class="banner banner-warning">
            <p>
              This deletes <strong>{plural(preview.result.occurrences, 'event')}</strong> from <strong>{plural(preview.result.issue_groups, 'issue group')}</strong>
              {preview.result.sources ? <> in {plural(preview.result.sources, 'source file')}</> : null}. Issues left without events are removed.
            </p>
          </div>
          <Field id="deletion-confirmation" label={`Type ${CONFIRMATION} to confirm`}>
            <input {...fieldProps('deletion-confirmation')} type="text" autocomplete="off" spellcheck={false} value={typed} onInput={(event) => setTyped(event.currentTarget.value)} />
          </Field>
          <div class="form-actions form-actions-start">
            <button type="submit" class="button button-danger" disabled={busy || typed !== CONFIRMATION}>Delete logs</button>
            <button type="button" class="button button-ghost" onClick={() => setPreview(null)}>Cancel</button>
          </div>
        </form>
      )}
      {error && <p class="field-error" role="alert">{error}</p>}
    </section>
  )
}

/** Up to 100 newest sources for the picker (the list endpoint's maximum page). */
async function previewSources(signal: AbortSignal) {
  const page = await listSources(1, signal, 100)
  return page.data
}
