import { getEventContext } from '../api/endpoints.ts'
import { useApi } from '../state/use-api.ts'
import { ErrorBanner } from './error-banner.tsx'
import { Spinner } from './spinner.tsx'

/** Lines shown on each side of an event. */
const CONTEXT_LINES = 5

/**
 * The archived log lines around one occurrence (`event-context`, issue 17 item 7): the lines before and
 * after dimmed, the event's own lines marked, "start/end of file" where the file stops. Events received over
 * HTTP or Sentry have no file: the API's reason is shown instead.
 */
export function EventContextView({ occurrenceId }: { occurrenceId: number }) {
  const context = useApi(`event-context:${occurrenceId}`, (signal) => getEventContext(occurrenceId, CONTEXT_LINES, signal))
  if (context.error) return <ErrorBanner error={context.error} onRetry={context.reload} context="Context unavailable" />
  const data = context.data
  if (!data) return <Spinner label="Loading the lines around this event…" />
  if (!data.available) return <p class="muted small" data-testid="event-context">{data.reason}</p>
  return (
    <figure class="event-context" data-testid="event-context">
      <figcaption class="muted small">{data.path}</figcaption>
      <pre tabIndex={0} aria-label="Log lines around the event">
        {data.start_of_file && <span class="context-edge">— start of file —{'\n'}</span>}
        {data.before.map((line) => <span key={line.byte_start} class="context-line">{line.text}{'\n'}</span>)}
        {data.lines.map((line) => <mark key={line.byte_start} class="context-line event-line">{line.text}{'\n'}</mark>)}
        {data.after.map((line) => <span key={line.byte_start} class="context-line">{line.text}{'\n'}</span>)}
        {data.end_of_file && <span class="context-edge">— end of file —</span>}
      </pre>
    </figure>
  )
}
