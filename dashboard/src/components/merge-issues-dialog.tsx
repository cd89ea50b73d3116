import { useState } from 'preact/hooks'
import type { IssueListItem } from '../../../shared/schemas/issue.ts'
import { mergeIssues } from '../api/endpoints.ts'
import { formatNumber, plural } from '../lib/format.ts'
import { navigate, useViewState } from '../state/url-state.ts'
import { useMutation } from '../state/use-mutation.ts'
import { SeverityBadge } from './badges.tsx'
import { Dialog } from './dialog.tsx'

/** The issue a merge folds the others into by default: the one with most events (then the oldest id). */
export function defaultTarget(issues: readonly Pick<IssueListItem, 'id' | 'count'>[]): number | null {
  let best: Pick<IssueListItem, 'id' | 'count'> | null = null
  for (const issue of issues) if (!best || issue.count > best.count || (issue.count === best.count && issue.id < best.id)) best = issue
  return best?.id ?? null
}

/**
 * The bulk bar's "Merge…" (issue 17 item 8): shown when at least two of the selected issues are on the page,
 * it opens a dialog listing them to pick the target, then calls `merge-issues`. The lists refetch (every
 * mutation does), the selection clears through `onDone`, and an inspector showing a merged issue moves to the
 * target.
 */
export function MergeIssuesButton({ ids, items, onDone }: { ids: readonly number[]; items: readonly IssueListItem[]; onDone: () => void }) {
  const [open, setOpen] = useState(false)
  const selected = items.filter((issue) => ids.includes(issue.id))
  if (selected.length < 2) return null
  return (
    <>
      <button type="button" class="button button-small" onClick={() => setOpen(true)}>Merge…</button>
      {open && <MergeIssuesDialog issues={selected} onClose={() => setOpen(false)} onMerged={onDone} />}
    </>
  )
}

export function MergeIssuesDialog({ issues, onClose, onMerged }: { issues: readonly IssueListItem[]; onClose: () => void; onMerged: () => void }) {
  const [target, setTarget] = useState<number>(() => defaultTarget(issues)!)
  const [error, setError] = useState('')
  const { busy, run } = useMutation()
  const view = useViewState()
  const others = issues.filter((issue) => issue.id !== target).map((issue) => issue.id)
  const total = issues.reduce((sum, issue) => sum + issue.count, 0)

  const submit = async (event: Event) => {
    event.preventDefault()
    setError('')
    await run(() => mergeIssues(target, others), {
      done: (result) => {
        onClose()
        onMerged()
        if (view.issue !== null && result.merged.includes(view.issue)) navigate({ issue: result.target })
        return `Merged ${plural(result.merged.length, 'issue')} into #${result.target} (${plural(result.count, 'event')})`
      },
      failed: setError,
    })
  }

  return (
    <Dialog title={`Merge ${issues.length} issues`} onClose={onClose} wide>
      <form class="form merge-form" onSubmit={submit} noValidate>
        {error && <p class="banner banner-error" role="alert">{error}</p>}
        <fieldset class="merge-targets">
          <legend>Keep this issue; the others are merged into it</legend>
          <ul class="merge-list">
            {issues.map((issue) => (
              <li key={issue.id}>
                <label class={issue.id === target ? 'merge-option merge-option-target' : 'merge-option'}>
                  <input type="radio" name="merge-target" value={String(issue.id)} checked={issue.id === target} onChange={() => setTarget(issue.id)} />
                  <SeverityBadge severity={issue.severity} />
                  <span class="merge-title">{issue.title}</span>
                  <span class="merge-meta">#{issue.id} · {plural(issue.count, 'event')}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <p class="muted small merge-summary">
          Occurrences, history and tags of {plural(others.length, 'issue')} move to #{target}, which will count {formatNumber(total)} events; the
          merged issues are deleted and their future events are grouped into #{target}.
        </p>
        <div class="form-actions">
          <button type="button" class="button button-ghost" onClick={onClose}>Cancel</button>
          <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Merging…' : `Merge into #${target}`}</button>
        </div>
      </form>
    </Dialog>
  )
}
