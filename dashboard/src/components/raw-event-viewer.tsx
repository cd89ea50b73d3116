import { getRawEvent } from '../api/endpoints.ts'
import { formatNumber } from '../lib/format.ts'
import { useApi } from '../state/use-api.ts'
import { ErrorBanner } from './error-banner.tsx'
import { Spinner } from './spinner.tsx'

/** The exact bytes of one event from the archived file (`source&occurrence=`). */
export function RawEventViewer({ occurrenceId }: { occurrenceId: number }) {
  const raw = useApi(`raw:${occurrenceId}`, (signal) => getRawEvent(occurrenceId, signal))
  if (raw.error) return <ErrorBanner error={raw.error} onRetry={raw.reload} context="Raw event unavailable" />
  if (!raw.data) return <Spinner label="Loading raw event…" />
  return (
    <figure class="raw-event" data-testid="raw-event">
      <figcaption class="muted small">
        {raw.data.path} · bytes {formatNumber(raw.data.byte_start)}–{formatNumber(raw.data.byte_end)}
      </figcaption>
      <pre tabIndex={0}>{raw.data.content}</pre>
    </figure>
  )
}
