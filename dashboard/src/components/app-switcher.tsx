import { listApplications } from '../api/endpoints.ts'
import { useApi } from '../state/use-api.ts'
import { navigate } from '../state/url-state.ts'
import { Icon } from './icon.tsx'

/**
 * Chooses the application every view is scoped to (`app` in the URL; empty = the API's default, the first
 * registered application). Switching resets the filters, since ids mean nothing across applications.
 */
export function AppSwitcher({ app, onManage }: { app: string; onManage: () => void }) {
  const apps = useApi('applications', listApplications)
  const list = apps.data?.data ?? []
  const selected = app || list[0]?.id || ''
  return (
    <div class="app-switcher">
      <div class="app-switcher-head">
        <label for="app-select" class="sidebar-label">
          Application
        </label>
        <button type="button" class="icon-button icon-button-small" onClick={onManage} aria-label="Manage applications and modules" title="Applications & modules">
          <Icon name="layers" size={14} />
        </button>
      </div>
      <select
        id="app-select"
        value={selected}
        disabled={!apps.data}
        onChange={(event) => {
          const value = event.currentTarget.value
          navigate({ app: value === list[0]?.id ? '' : value })
        }}
      >
        {!apps.data && <option value="">{apps.error ? 'Unavailable' : 'Loading…'}</option>}
        {list.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </select>
    </div>
  )
}
