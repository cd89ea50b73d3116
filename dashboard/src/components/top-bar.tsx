import { invalidateData } from '../state/data-epoch.ts'
import { Icon } from './icon.tsx'
import { ProcessLogsButton } from './process-logs-button.tsx'
import { SearchBox } from './search-box.tsx'
import { ThemeToggle } from './theme-toggle.tsx'

export type DialogName = 'tags' | 'issue' | 'apps' | 'key'

/** Search, refresh, Process logs, New issue, Tags, API key and theme (reference §7 "top bar"). */
export function TopBar({ q, onOpen }: { q: string; onOpen: (dialog: DialogName) => void }) {
  return (
    <header class="topbar">
      <SearchBox value={q} />
      <div class="topbar-actions">
        <button type="button" class="icon-button" onClick={invalidateData} aria-label="Refresh data" title="Refresh">
          <Icon name="refresh" />
        </button>
        <ProcessLogsButton compact />
        <button type="button" class="button button-ghost" onClick={() => onOpen('tags')}>
          <Icon name="tag" />
          Tags
        </button>
        <button type="button" class="button button-primary" onClick={() => onOpen('issue')}>
          <Icon name="plus" />
          New issue
        </button>
        <button type="button" class="icon-button" onClick={() => onOpen('key')} aria-label="API key" title="API key">
          <Icon name="key" />
        </button>
        <ThemeToggle />
      </div>
    </header>
  )
}
