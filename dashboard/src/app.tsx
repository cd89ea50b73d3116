import { useEffect, useState } from 'preact/hooks'
import { onUnauthorized, setCurrentApp } from './api/client.ts'
import { ApiKeyDialog } from './components/api-key-dialog.tsx'
import { AppsDialog } from './components/apps-dialog.tsx'
import { Inspector } from './components/inspector.tsx'
import { ManualIssueDialog } from './components/manual-issue-dialog.tsx'
import { Sidebar } from './components/sidebar.tsx'
import { TagManagerDialog } from './components/tag-manager-dialog.tsx'
import { ToastRegion } from './components/toast-region.tsx'
import { TopBar, type DialogName } from './components/top-bar.tsx'
import { IssuesPage } from './pages/issues-page.tsx'
import { AccessAnalyticsPage } from './pages/access-analytics-page.tsx'
import { SettingsPage } from './pages/settings-page.tsx'
import { CatalogProvider } from './state/catalog.tsx'
import { navigate, readState, useViewState } from './state/url-state.ts'

/** The shell: sidebar, top bar, the current page, the inspector, dialogs and toasts. */
export function App() {
  const state = useViewState()
  // Every API call made while rendering this state belongs to its application.
  setCurrentApp(state.app)
  const [dialog, setDialog] = useState<{ name: DialogName; unauthorized?: boolean } | null>(null)

  useEffect(() => onUnauthorized(() => setDialog({ name: 'key', unauthorized: true })), [])
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return
      if (readState().issue !== null) navigate({ issue: null })
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  const close = () => setDialog(null)
  const inspecting = state.view === 'issues' && state.issue !== null
  return (
    // Keyed by application: switching remounts every view, so nothing from the previous one (lists, selection,
    // half-filled forms) lingers — ids mean nothing across applications.
    <CatalogProvider key={state.app} app={state.app}>
      <a class="skip-link" href="#main">Skip to content</a>
      <div class={inspecting ? 'shell inspecting' : 'shell'}>
        <Sidebar state={state} onManageApps={() => setDialog({ name: 'apps' })} />
        <div class="main-column">
          <TopBar q={state.q} onOpen={(name) => setDialog({ name })} />
          <main id="main" tabIndex={-1}>
            {state.view === 'settings' ? <SettingsPage state={state} /> : state.view === 'analytics' ? <AccessAnalyticsPage app={state.app} /> : <IssuesPage state={state} />}
          </main>
        </div>
        {inspecting && <Inspector key={`${state.app}:${state.issue}`} issueId={state.issue!} app={state.app} />}
      </div>
      {dialog?.name === 'key' && <ApiKeyDialog onClose={close} reason={dialog.unauthorized ? 'unauthorized' : 'manual'} />}
      {dialog?.name === 'tags' && <TagManagerDialog onClose={close} />}
      {dialog?.name === 'issue' && <ManualIssueDialog onClose={close} />}
      {dialog?.name === 'apps' && <AppsDialog app={state.app} onClose={close} />}
      <ToastRegion />
    </CatalogProvider>
  )
}
