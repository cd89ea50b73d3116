import { invalidateData } from '../state/data-epoch.ts'
import { Icon } from './icon.tsx'
import { ProcessLogsButton } from './process-logs-button.tsx'
import { SearchBox } from './search-box.tsx'
import { ThemeToggle } from './theme-toggle.tsx'

export type DialogName = 'tags' | 'issue' | 'apps' | 'key'

/**
 * Search, refresh, Process logs, New issue, Tags, API key and theme (reference §7 "top bar"), and — below
 * 960 px, where the sidebar folds away (issue 17 item 1) — the menu button that opens it. On a phone the
 * buttons keep only their icons (their names stay for screen readers) and search takes a row of its own.
 */
export function TopBar({ q, onOpen, menuOpen, onMenu }: { q: string; onOpen: (dialog: DialogName) => void; menuOpen: boolean; onMenu: () => void }) {
  return (
    <header class="topbar">
      <button type="button" class="icon-button menu-button" onClick={onMenu} aria-label="Menu" aria-expanded={menuOpen} aria-controls="sidebar" title="Menu">
        <Icon name="menu" />
      </button>
      <SearchBox value={q} />
      <div class="topbar-actions">
        <button type="button" class="icon-button" onClick={invalidateData} aria-label="Refresh data" title="Refresh">
          <Icon name="refresh" />
        </button>
        <ProcessLogsButton compact />
        <button type="button" class="button button-ghost" onClick={() => onOpen('tags')} title="Tags">
          <Icon name="tag" />
          <span class="button-label">Tags</span>
        </button>
        <button type="button" class="button button-primary" onClick={() => onOpen('issue')} title="New issue">
          <Icon name="plus" />
          <span class="button-label">New issue</span>
        </button>
        <button type="button" class="icon-button" onClick={() => onOpen('key')} aria-label="API key" title="API key">
          <Icon name="key" />
        </button>
        <ThemeToggle />
      </div>
    </header>
  )
}
