import { useEffect, useState } from 'preact/hooks'
import { ISSUE_STATUSES, type IssueStatus } from '../../../shared/constants.ts'
import { IssueStatusInputSchema } from '../../../shared/schemas/issue.ts'
import { check } from '../../../shared/validate.ts'
import { setIssueStatus } from '../api/endpoints.ts'
import { humanize } from '../lib/format.ts'
import { Field, fieldProps } from './field.tsx'
import { useMutation } from '../state/use-mutation.ts'

/** Status change with an optional note (`issue-status`); the same status again just records the note. */
export function StatusForm({ issueId, current }: { issueId: number; current: IssueStatus }) {
  const [status, setStatus] = useState<IssueStatus>(current)
  const [note, setNote] = useState('')
  const [error, setError] = useState('')
  const { busy, run } = useMutation()
  useEffect(() => setStatus(current), [issueId, current])

  const submit = async (event: Event) => {
    event.preventDefault()
    if (busy) return
    const valid = check({ id: issueId, status, note }, IssueStatusInputSchema)
    if (!valid.ok) return setError(valid.message)
    setError('')
    await run(() => setIssueStatus(issueId, status, note), {
      done: () => {
        setNote('')
        return status === current ? 'Note added' : `Status changed to ${humanize(status)}`
      },
      failed: setError,
    })
  }

  return (
    <form class="status-form" onSubmit={submit} aria-label="Change status">
      <div class="status-form-row">
        <div class="field">
          <label for="inspector-status">Status</label>
          <select id="inspector-status" value={status} onChange={(event) => setStatus(event.currentTarget.value as IssueStatus)}>
            {ISSUE_STATUSES.map((value) => (
              <option key={value} value={value}>{humanize(value)}</option>
            ))}
          </select>
        </div>
        <Field id="inspector-note" label="Note (optional)" error={error}>
          <textarea {...fieldProps('inspector-note', error)} rows={1} value={note} onInput={(event) => setNote(event.currentTarget.value)} placeholder="Why? e.g. fixed in release 1.4.2" />
        </Field>
      </div>
      {/* aria-disabled, not disabled: disabling the focused button would drop focus to <body> (issue 17 item 12). */}
      <button type="submit" class="button button-primary button-small" aria-disabled={busy}>
        {busy ? 'Saving…' : status === current ? 'Add note' : `Set to ${humanize(status)}`}
      </button>
    </form>
  )
}
