import { useEffect, useState } from 'preact/hooks'
import { onUnauthorized, setCurrentApp } from './api/client.ts'
import { ApiKeyDialog } from './components/api-key-dialog.tsx'
import { ApiKeyScreen } from './components/api-key-screen.tsx'
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
import { invalidateData } from './state/data-epoch.ts'
import { showToast } from './state/toasts.ts'
import { navigate, readState, useViewState } from './state/url-state.ts'

/**
 * The shell: sidebar (a drawer below 960 px), top bar, the current page, the inspector, dialogs and toasts —
 * or, once the server has answered 401, only the API-key screen (issue 17 item 13).
 */
export function App() {
  const state = useViewState()
  // Every API call made while rendering this state belongs to its application.
  setCurrentApp(state.app)
  const [dialog, setDialog] = useState<DialogName | null>(null)
  const [needsKey, setNeedsKey] = useState(false)
  const [menuOpen, setMenuOpen] = useState(false)

  useEffect(() => onUnauthorized(() => setNeedsKey(true)), [])
  // A choice in the drawer (a view, a source, an application) closes it.
  useEffect(() => setMenuOpen(false), [state])
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return
      if (document.querySelector('.sidebar.open')) {
        setMenuOpen(false)
        document.querySelector<HTMLElement>('.menu-button')?.focus()
      } else if (readState().issue !== null) navigate({ issue: null })
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
  useEffect(() => {
    if (menuOpen) document.querySelector<HTMLElement>('#sidebar select, #sidebar a')?.focus()
  }, [menuOpen])

  if (needsKey) {
    return (
      <>
        <ApiKeyScreen
          onSaved={() => {
            setNeedsKey(false)
            showToast('API key checked and saved in this browser')
            invalidateData()
          }}
        />
        <ToastRegion />
      </>
    )
  }

  const close = () => setDialog(null)
  const inspecting = state.view === 'issues' && state.issue !== null
  return (
    // Keyed by application: switching remounts every view, so nothing from the previous one (lists, selection,
    // half-filled forms) lingers — ids mean nothing across applications.
    <CatalogProvider key={state.app} app={state.app}>
      {/* Issue 17 item 12: on the issues view the skip link goes straight to the list (id="issues"). */}
      {state.view === 'issues' ? <a class="skip-link" href="#issues">Skip to issues</a> : <a class="skip-link" href="#main">Skip to content</a>}
      <div class={inspecting ? 'shell inspecting' : 'shell'}>
        <Sidebar state={state} onManageApps={() => setDialog('apps')} open={menuOpen} />
        {menuOpen && <div class="sidebar-backdrop" onClick={() => setMenuOpen(false)} aria-hidden="true" />}
        <div class="main-column">
          <TopBar q={state.q} onOpen={setDialog} menuOpen={menuOpen} onMenu={() => setMenuOpen(!menuOpen)} />
          <main id="main" tabIndex={-1}>
            {state.view === 'settings' ? <SettingsPage state={state} /> : state.view === 'analytics' ? <AccessAnalyticsPage app={state.app} /> : <IssuesPage state={state} />}
          </main>
        </div>
        {inspecting && <Inspector key={`${state.app}:${state.issue}`} issueId={state.issue!} app={state.app} />}
      </div>
      {dialog === 'key' && <ApiKeyDialog onClose={close} />}
      {dialog === 'tags' && <TagManagerDialog onClose={close} />}
      {dialog === 'issue' && <ManualIssueDialog onClose={close} />}
      {dialog === 'apps' && <AppsDialog app={state.app} onClose={close} />}
      <ToastRegion />
    </CatalogProvider>
  )
}
