import { useEffect, useState } from 'preact/hooks'
import { getOccurrencePage } from '../api/endpoints.ts'
import type { Occurrence } from '../api/types.ts'
import { errorMessage } from '../api/api-error.ts'
import { basename, formatNumber } from '../lib/format.ts'
import { prettyJson } from '../lib/stack.ts'
import { EventContextView } from './event-context-view.tsx'
import { RawEventViewer } from './raw-event-viewer.tsx'

/** Occurrences per page, as the inspector's first read asks for (`getGroup`). */
export const OCCURRENCE_PAGE = 100

type Panel = 'details' | 'context' | 'raw'

/**
 * The issue's occurrences, newest first, paged (issue 17 item 5): the first page comes with the issue, "Show
 * more" reads the next one (`group&page=`). Each occurrence opens its recorded context, the log lines around
 * it, or its raw event.
 */
export function OccurrenceList({ issueId, occurrences, total }: { issueId: number; occurrences: readonly Occurrence[]; total: number }) {
  const [open, setOpen] = useState<{ id: number; panel: Panel } | null>(null)
  const [more, setMore] = useState<Occurrence[]>([])
  const [loading, setLoading] = useState(false)
  const [error, setError] = useState('')
  // A refetched first page (after a status change) starts the list over.
  useEffect(() => setMore([]), [issueId, occurrences])
  if (occurrences.length === 0) return <p class="muted small">No stored occurrences (manual and tracker issues have none).</p>
  const shown = [...occurrences, ...more.filter((o) => !occurrences.some((first) => first.id === o.id))]
  const loadMore = async () => {
    setLoading(true)
    setError('')
    try {
      const page = Math.floor(shown.length / OCCURRENCE_PAGE) + 1
      const next = await getOccurrencePage(issueId, page, OCCURRENCE_PAGE)
      setMore((previous) => [...previous, ...next.occurrences])
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setLoading(false)
    }
  }
  const toggle = (id: number, panel: Panel) => setOpen(open?.id === id && open.panel === panel ? null : { id, panel })
  return (
    <>
      <p class="muted small" data-testid="occurrence-count">
        Showing {formatNumber(shown.length)} of {formatNumber(total)}, newest first.
      </p>
      <ul class="occurrences">
        {shown.map((occurrence) => {
          const panel = open?.id === occurrence.id ? open.panel : null
          return (
            <li key={occurrence.id} class="occurrence">
              <div class="occurrence-row">
                <button type="button" class="link-button" aria-expanded={panel === 'details'} onClick={() => toggle(occurrence.id, 'details')}>
                  {occurrence.occurred_at}
                </button>
                <span class="muted small occurrence-where" title={occurrence.path ?? ''}>
                  {basename(occurrence.path)}
                  {occurrence.release ? ` · ${occurrence.release}` : ''}
                </span>
                <span class="occurrence-actions">
                  <button type="button" class="button button-small button-ghost" aria-pressed={panel === 'context'} onClick={() => toggle(occurrence.id, 'context')}>
                    Context
                  </button>
                  <button type="button" class="button button-small button-ghost" aria-pressed={panel === 'raw'} onClick={() => toggle(occurrence.id, 'raw')}>
                    {panel === 'raw' ? 'Hide raw' : 'Raw event'}
                  </button>
                </span>
              </div>
              {panel === 'details' && occurrence.context_preview && <pre class="context">{prettyJson(occurrence.context_preview)}</pre>}
              {panel === 'details' && !occurrence.context_preview && <p class="muted small">No context recorded.</p>}
              {panel === 'context' && <EventContextView occurrenceId={occurrence.id} />}
              {panel === 'raw' && <RawEventViewer occurrenceId={occurrence.id} />}
            </li>
          )
        })}
      </ul>
      {shown.length < total && (
        <button type="button" class="button button-small" onClick={() => void loadMore()} aria-disabled={loading} data-testid="more-occurrences">
          {loading ? 'Loading…' : `Show ${formatNumber(Math.min(OCCURRENCE_PAGE, total - shown.length))} more`}
        </button>
      )}
      {error && <p class="field-error" role="alert">{error}</p>}
    </>
  )
}
