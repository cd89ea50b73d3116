import { useEffect } from 'preact/hooks'
import { FailedImportsPanel } from '../components/failed-imports-panel.tsx'
import { IngestionSettingsPanel } from '../components/ingestion-settings-panel.tsx'
import { LogDeletionPanel } from '../components/log-deletion-panel.tsx'
import { LogUploadPanel } from '../components/log-upload-panel.tsx'
import { PluginsPanel } from '../components/plugins-panel.tsx'
import { IngestPanel } from '../components/ingest-panel.tsx'
import { AlertsPanel } from '../components/alerts-panel.tsx'
import { ConnectorsPanel } from '../components/connectors-panel.tsx'
import { ReleasesPanel } from '../components/releases-panel.tsx'
import { RetentionPanel } from '../components/retention-panel.tsx'
import { TrackerPanel } from '../components/tracker-panel.tsx'
import { navigate, SETTINGS_TABS, type ViewState } from '../state/url-state.ts'

const LABELS: Record<ViewState['tab'], string> = { ingestion: 'Ingestion', logs: 'Logs', maintenance: 'Maintenance', plugins: 'Plugins', ingest: 'Ingest', alerts: 'Alerts', tracker: 'Tracker', releases: 'Releases', connectors: 'Connectors' }

/** Settings: ingestion severities, log upload and processing, deletion and archive retention, plugins, HTTP/Sentry ingest, alerting, the issue tracker, releases, connectors. */
export function SettingsPage({ state }: { state: ViewState }) {
  // On a phone the tab row scrolls sideways (issue 17 item 1): keep the chosen tab in sight.
  useEffect(() => document.getElementById(`tab-${state.tab}`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' }), [state.tab])
  const onKey = (event: KeyboardEvent) => {
    // WAI-ARIA tabs: arrow keys move between tabs.
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return
    const index = SETTINGS_TABS.indexOf(state.tab) + (event.key === 'ArrowRight' ? 1 : -1)
    const next = SETTINGS_TABS[(index + SETTINGS_TABS.length) % SETTINGS_TABS.length]!
    navigate({ tab: next }, 'replace')
    requestAnimationFrame(() => document.getElementById(`tab-${next}`)?.focus())
  }
  return (
    <div class="settings-page">
      <div class="page-heading">
        <div>
          <p class="eyebrow">Configuration</p>
          <h1>Settings</h1>
        </div>
      </div>
      <div class="tabs" role="tablist" aria-label="Settings sections" onKeyDown={onKey}>
        {SETTINGS_TABS.map((tab) => (
          <button key={tab} id={`tab-${tab}`} type="button" role="tab" aria-selected={state.tab === tab} aria-controls={`panel-${tab}`} tabIndex={state.tab === tab ? 0 : -1} class={state.tab === tab ? 'tab active' : 'tab'} onClick={() => navigate({ tab })}>
            {LABELS[tab]}
          </button>
        ))}
      </div>
      <div id={`panel-${state.tab}`} role="tabpanel" aria-labelledby={`tab-${state.tab}`} class="tab-panel">
        {state.tab === 'ingestion' && <IngestionSettingsPanel app={state.app} />}
        {state.tab === 'logs' && (<><LogUploadPanel /><FailedImportsPanel app={state.app} /></>)}
        {state.tab === 'maintenance' && (
          <>
            <LogDeletionPanel app={state.app} />
            <RetentionPanel app={state.app} />
          </>
        )}
        {state.tab === 'plugins' && <PluginsPanel app={state.app} />}
        {state.tab === 'ingest' && <IngestPanel app={state.app} />}
        {state.tab === 'alerts' && <AlertsPanel app={state.app} />}
        {state.tab === 'tracker' && <TrackerPanel app={state.app} />}
        {state.tab === 'releases' && <ReleasesPanel app={state.app} />}
        {state.tab === 'connectors' && <ConnectorsPanel app={state.app} />}
      </div>
    </div>
  )
}
