import { useState } from 'preact/hooks'
import { ApiError } from '../api/api-error.ts'
import { getIngestSettings, regenerateIngestKey } from '../api/endpoints.ts'
import { useApi } from '../state/use-api.ts'
import { useMutation } from '../state/use-mutation.ts'
import { navigate } from '../state/url-state.ts'
import { showToast } from '../state/toasts.ts'
import { ErrorBanner } from './error-banner.tsx'
import { Spinner } from './spinner.tsx'

/**
 * Settings → Ingest (issue 12): where applications send events — the Sentry DSN, the HTTP ingest URL and
 * key (regenerated only after a confirmation, since every client using the old key stops being accepted) —
 * the rate limit, and snippets to paste for `@sentry/node`, `@sentry/browser` and curl. Opening it mints the
 * key (reference §4.3: the settings read is what mints one).
 */
export function IngestPanel({ app }: { app: string }) {
  const settings = useApi(`ingest-settings:${app}`, getIngestSettings)
  const [revealed, setRevealed] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const { busy, run } = useMutation()

  if (settings.error instanceof ApiError && settings.error.status === 404) {
    return (
      <section class="panel settings-panel" aria-labelledby="ingest-heading">
        <h2 id="ingest-heading" class="panel-title">Ingest</h2>
        <p class="muted">HTTP and Sentry ingest is off for this application.</p>
        <button type="button" class="button button-primary" onClick={() => navigate({ tab: 'plugins' })}>
          Switch it on in Plugins
        </button>
      </section>
    )
  }
  if (settings.error) return <ErrorBanner error={settings.error} onRetry={settings.reload} context="Ingest settings unavailable" />
  if (!settings.data) return <Spinner />
  const { dsn, ingest_url: ingestUrl, key, key_header: keyHeader, rate_limit: rate } = settings.data
  const shownKey = revealed ? key : `${key.slice(0, 8)}${'•'.repeat(16)}`
  const regenerate = () =>
    run(regenerateIngestKey, { done: () => 'New ingest key made; clients using the old key are now refused', failure: 'Could not regenerate the key', settled: () => setConfirming(false) })

  const snippets: [string, string][] = [
    ['@sentry/node', `import * as Sentry from '@sentry/node'\n\nSentry.init({ dsn: '${dsn}', release: 'my-app@1.0.0' })`],
    ['@sentry/browser', `import * as Sentry from '@sentry/browser'\n\nSentry.init({ dsn: '${dsn}', release: 'my-app@1.0.0' })`],
    ['curl', `curl '${ingestUrl}' \\\n  -H '${keyHeader}: ${key}' -H 'Content-Type: application/json' \\\n  -d '{"message": "Payment failed", "exception_class": "PaymentError", "tags": ["checkout"]}'`],
  ]
  return (
    <section class="panel settings-panel" aria-labelledby="ingest-heading" data-testid="ingest-panel">
      <h2 id="ingest-heading" class="panel-title">Ingest</h2>
      <p class="muted">Applications report errors as they happen: unchanged Sentry SDKs with the DSN, or any HTTP client with the key.</p>
      <dl class="facts ingest-facts">
        <div class="fact">
          <dt>Sentry DSN</dt>
          <dd><CopyValue label="DSN" value={dsn} /></dd>
        </div>
        <div class="fact">
          <dt>Ingest URL</dt>
          <dd><CopyValue label="ingest URL" value={ingestUrl} /></dd>
        </div>
        <div class="fact">
          <dt>Key</dt>
          <dd>
          <code data-testid="ingest-key">{shownKey}</code>{' '}
          <button type="button" class="button button-small button-ghost" onClick={() => setRevealed(!revealed)}>{revealed ? 'Hide' : 'Reveal'}</button>{' '}
          <span class="muted small">sent as {keyHeader}, Authorization: Bearer, or ?key=</span>
          </dd>
        </div>
        <div class="fact">
          <dt>Rate limit</dt>
          <dd>{rate.max_events.toLocaleString('en')} events per {rate.window_seconds} s for this application</dd>
        </div>
      </dl>
      {confirming ? (
        <span class="inline-confirm" role="group" aria-label="Confirm key regeneration">
          <span class="small">Clients using the current key (and the DSN) will be refused until updated.</span>
          <button type="button" class="button button-small button-danger" onClick={regenerate} disabled={busy} autoFocus>
            {busy ? 'Regenerating…' : 'Regenerate key'}
          </button>
          <button type="button" class="button button-small button-ghost" onClick={() => setConfirming(false)} disabled={busy}>
            Cancel
          </button>
        </span>
      ) : (
        <button type="button" class="button button-ghost" onClick={() => setConfirming(true)}>
          Regenerate key…
        </button>
      )}
      <h3 class="panel-subtitle">Snippets</h3>
      {snippets.map(([title, code]) => (
        <figure key={title} class="snippet">
          <figcaption>
            {title} <CopyValue label={`${title} snippet`} value={code} hidden />
          </figcaption>
          <pre class="code">{code}</pre>
        </figure>
      ))}
    </section>
  )
}

/** A value with a copy button (`hidden` shows only the button, for text already on screen). */
export function CopyValue({ label, value, hidden = false }: { label: string; value: string; hidden?: boolean }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      showToast(`Copied the ${label}`)
    } catch {
      showToast(`Could not copy the ${label}; select it instead`, 'error')
    }
  }
  return (
    <>
      {!hidden && <code class="copyable">{value}</code>}{' '}
      <button type="button" class="button button-small button-ghost" onClick={() => void copy()} aria-label={`Copy the ${label}`}>
        Copy
      </button>
    </>
  )
}
