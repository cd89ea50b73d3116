import { useEffect, useState } from 'preact/hooks'
import { SEVERITIES, type Severity } from '../../../shared/constants.ts'
import { getIngestionSettings, saveIngestionSettings } from '../api/endpoints.ts'
import { useApi } from '../state/use-api.ts'
import { ErrorBanner } from './error-banner.tsx'
import { ReindexButton } from './reindex-button.tsx'
import { Spinner } from './spinner.tsx'
import { useMutation } from '../state/use-mutation.ts'

/**
 * Which severities file imports index (`ingestion-settings`, reference §3.5). Others are skipped and never
 * stored; the change applies to future imports.
 */
export function IngestionSettingsPanel({ app }: { app: string }) {
  const settings = useApi(`ingestion:${app}`, getIngestionSettings)
  const [chosen, setChosen] = useState<Severity[]>([])
  const [error, setError] = useState('')
  const { busy, run } = useMutation()
  useEffect(() => {
    if (settings.data) setChosen([...settings.data.ingested_severities])
  }, [settings.data])

  if (settings.error) return <ErrorBanner error={settings.error} onRetry={settings.reload} context="Ingestion settings unavailable" />
  if (!settings.data) return <Spinner />
  const available = settings.data.available_severities?.length ? settings.data.available_severities : [...SEVERITIES]
  const saved = settings.data.ingested_severities
  const dirty = chosen.length !== saved.length || chosen.some((severity) => !saved.includes(severity))

  const save = async () => {
    setError('')
    await run(() => saveIngestionSettings(available.filter((severity) => chosen.includes(severity))), { done: () => 'Ingestion severities saved', failed: setError })
  }

  return (
    <section class="panel settings-panel" aria-labelledby="ingestion-heading">
      <h2 id="ingestion-heading" class="panel-title">Indexed severities</h2>
      <p class="muted">File imports store only these severities; other lines are skipped. Events sent to the ingest API are always stored. Defaults: {settings.data.defaults.join(', ')}.</p>
      <div class="chips" role="group" aria-label="Severities to index">
        {available.map((severity) => {
          const on = chosen.includes(severity)
          return (
            <button key={severity} type="button" class={on ? `chip on severity-chip-${severity.toLowerCase()}` : 'chip'} aria-pressed={on} onClick={() => setChosen(on ? chosen.filter((value) => value !== severity) : [...chosen, severity])}>
              {severity}
            </button>
          )
        })}
      </div>
      {error && <p class="field-error" role="alert">{error}</p>}
      <div class="form-actions form-actions-start">
        <button type="button" class="button button-primary" onClick={save} disabled={busy || !dirty}>{busy ? 'Saving…' : 'Save severities'}</button>
        <button type="button" class="button button-ghost" onClick={() => setChosen([...settings.data!.defaults])} disabled={busy}>Reset to defaults</button>
      </div>
      <p class="muted small settings-note">A change applies to future imports. To apply it to files already imported, reindex them.</p>
      <ReindexButton />
    </section>
  )
}
