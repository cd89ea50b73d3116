import { useState } from 'preact/hooks'
import type { Occurrence } from '../api/types.ts'
import { basename, formatNumber } from '../lib/format.ts'
import { prettyJson } from '../lib/stack.ts'
import { RawEventViewer } from './raw-event-viewer.tsx'

/** The issue's latest occurrences, each expandable to its context and its raw event. */
export function OccurrenceList({ occurrences, total }: { occurrences: readonly Occurrence[]; total: number }) {
  const [open, setOpen] = useState<number | null>(null)
  const [raw, setRaw] = useState<number | null>(null)
  if (occurrences.length === 0) return <p class="muted small">No stored occurrences (manual and tracker issues have none).</p>
  return (
    <>
      {total > occurrences.length && <p class="muted small">Showing the latest {formatNumber(occurrences.length)} of {formatNumber(total)}.</p>}
      <ul class="occurrences">
        {occurrences.map((occurrence) => (
          <li key={occurrence.id} class="occurrence">
            <div class="occurrence-row">
              <button type="button" class="link-button" aria-expanded={open === occurrence.id} onClick={() => setOpen(open === occurrence.id ? null : occurrence.id)}>
                {occurrence.occurred_at}
              </button>
              <span class="muted small" title={occurrence.path ?? ''}>
                {basename(occurrence.path)}
                {occurrence.release ? ` · ${occurrence.release}` : ''}
              </span>
              <button type="button" class="button button-small button-ghost" aria-pressed={raw === occurrence.id} onClick={() => setRaw(raw === occurrence.id ? null : occurrence.id)}>
                {raw === occurrence.id ? 'Hide raw' : 'Raw event'}
              </button>
            </div>
            {open === occurrence.id && occurrence.context_preview && <pre class="context">{prettyJson(occurrence.context_preview)}</pre>}
            {open === occurrence.id && !occurrence.context_preview && <p class="muted small">No context recorded.</p>}
            {raw === occurrence.id && <RawEventViewer occurrenceId={occurrence.id} />}
          </li>
        ))}
      </ul>
    </>
  )
}
