import { useEffect, useRef, useState } from 'preact/hooks'
import type { IssueListItem } from '../../../shared/schemas/issue.ts'
import { ISSUE_STATUSES, type IssueStatus } from '../../../shared/constants.ts'
import { bulkIssues, type BulkAction } from '../api/endpoints.ts'
import { humanize, plural } from '../lib/format.ts'
import { useCatalog } from '../state/catalog.tsx'
import { useMutation } from '../state/use-mutation.ts'
import { MergeIssuesButton } from './merge-issues-dialog.tsx'

/**
 * Actions on the selected issues (`bulk-issues`): status with a note, add or remove a tag. Sticky below the top
 * bar (issue-list.css). After an action the selection stays and focus stays on the control used (issue 17
 * item 12): busy buttons are `aria-disabled`, not `disabled` — disabling the focused button would drop focus
 * to <body>. Issues that leave the list (a status filter) leave the selection (issue-list.tsx). With two or more
 * selected, Merge… folds them into one (merge-issues-dialog.tsx).
 */
export function BulkBar({ ids, items = [], onClear, onFocusLost }: { ids: readonly number[]; items?: readonly IssueListItem[]; onClear: () => void; onFocusLost: () => void }) {
  const { tags } = useCatalog()
  const [status, setStatus] = useState<IssueStatus>('fixed')
  const [note, setNote] = useState('')
  const [tagId, setTagId] = useState('')
  const { busy, run: mutate } = useMutation()
  const [error, setError] = useState('')
  const bar = useRef<HTMLElement>(null)
  const lost = useRef(onFocusLost)
  lost.current = onFocusLost
  // Runs before the bar leaves the DOM (selection cleared or emptied): keep focus out of <body>.
  useEffect(() => () => {
    if (bar.current?.contains(document.activeElement)) lost.current()
  }, [])

  const run = async (action: BulkAction, done: string) => {
    if (busy) return
    setError('')
    await mutate(() => bulkIssues(ids, action), {
      done: (result) => {
        setNote('')
        return `${done} (${plural(result.updated ?? ids.length, 'issue')})`
      },
      failed: setError,
    })
  }
  const tagList = tags.data?.data ?? []
  const tagName = tagList.find((tag) => String(tag.id) === tagId)?.name ?? ''

  return (
    <section ref={bar} class="bulk-bar" aria-label="Bulk actions" data-testid="bulk-bar">
      <strong class="bulk-count">{plural(ids.length, 'issue')} selected</strong>
      <form
        class="bulk-group"
        onSubmit={(event) => {
          event.preventDefault()
          void run({ action: 'status', status, note }, `Status set to ${humanize(status)}`)
        }}
      >
        <label class="visually-hidden" for="bulk-status">New status</label>
        <select id="bulk-status" value={status} onChange={(event) => setStatus(event.currentTarget.value as IssueStatus)}>
          {ISSUE_STATUSES.map((value) => (
            <option key={value} value={value}>{humanize(value)}</option>
          ))}
        </select>
        <label class="visually-hidden" for="bulk-note">Note</label>
        <input id="bulk-note" type="text" placeholder="Note (optional)" value={note} maxLength={10_000} onInput={(event) => setNote(event.currentTarget.value)} />
        <button type="submit" class="button button-small button-primary" aria-disabled={busy}>Set status</button>
      </form>
      <div class="bulk-group">
        <label class="visually-hidden" for="bulk-tag">Tag</label>
        <select id="bulk-tag" value={tagId} onChange={(event) => setTagId(event.currentTarget.value)}>
          <option value="">{tagList.length ? 'Choose a tag…' : 'No tags yet'}</option>
          {tagList.map((tag) => (
            <option key={tag.id} value={String(tag.id)}>{tag.name}</option>
          ))}
        </select>
        <button type="button" class="button button-small" disabled={!tagId} aria-disabled={busy} onClick={() => run({ action: 'add_tag', tag_id: Number(tagId) }, `Tag ${tagName} added`)}>
          Add tag
        </button>
        <button type="button" class="button button-small button-ghost" disabled={!tagId} aria-disabled={busy} onClick={() => run({ action: 'remove_tag', tag_id: Number(tagId) }, `Tag ${tagName} removed`)}>
          Remove tag
        </button>
      </div>
      {/* A merge removes the merged issues: the selection clears. */}
      <MergeIssuesButton ids={ids} items={items} onDone={onClear} />
      <button type="button" class="link-button" onClick={onClear}>Clear selection</button>
      {error && <p class="field-error bulk-error" role="alert">{error}</p>}
    </section>
  )
}
