import { useState } from 'preact/hooks'
import { assignIssue } from '../api/endpoints.ts'
import { useCatalog } from '../state/catalog.tsx'
import { useMutation } from '../state/use-mutation.ts'

/**
 * The assignee (`assign-issue`). Standalone Loupe has users only when `assignable_users` is configured, so
 * the picker renders nothing when the list is empty (docs/api.md "assign-issue").
 */
export function AssigneePicker({ issueId, assignedToId }: { issueId: number; assignedToId: string | null }) {
  const { users } = useCatalog()
  const [error, setError] = useState('')
  const { busy, run } = useMutation()
  const list = users.data?.data ?? []
  if (list.length === 0) return null

  const change = async (value: string) => {
    setError('')
    await run(() => assignIssue(issueId, value || null), {
      done: (result) => (result.assigned_to_label ? `Assigned to ${result.assigned_to_label}` : 'Unassigned'),
      failed: setError,
    })
  }
  return (
    <div class="field assignee">
      <label for="inspector-assignee">Assignee</label>
      <select id="inspector-assignee" value={assignedToId ?? ''} disabled={busy} onChange={(event) => change(event.currentTarget.value)}>
        <option value="">Unassigned</option>
        {list.map((user) => (
          <option key={user.id} value={user.id}>{user.label}</option>
        ))}
      </select>
      {error && <p class="field-error" role="alert">{error}</p>}
    </div>
  )
}
