import { listPlugins } from '../api/endpoints.ts'
import { useApi } from '../state/use-api.ts'
import { hrefFor, navigate, type ViewState } from '../state/url-state.ts'
import { AppSwitcher } from './app-switcher.tsx'
import { Icon } from './icon.tsx'
import { SourcesList } from './sources-list.tsx'
import { Brand } from './brand.tsx'

/**
 * Application switcher, navigation and the sources list (reference §7 "Shell"). Below 960 px it is a drawer
 * the top bar's menu button opens (issue 17 item 1: on a phone it used to fill the whole first screen);
 * `open` only matters there.
 */
export function Sidebar({ state, onManageApps, open }: { state: ViewState; onManageApps: () => void; open: boolean }) {
  const plugins = useApi(`plugins:${state.app}`, listPlugins)
  const link = (view: ViewState['view'], label: string, icon: string) => (
    <a
      href={hrefFor({ view, issue: null })}
      class={state.view === view ? 'nav-link active' : 'nav-link'}
      aria-current={state.view === view ? 'page' : undefined}
      onClick={(event) => {
        event.preventDefault()
        navigate({ view, issue: null })
      }}
    >
      <Icon name={icon} />
      {label}
    </a>
  )
  return (
    <aside id="sidebar" class={open ? 'sidebar open' : 'sidebar'} aria-label="Sidebar">
      <Brand />
      <AppSwitcher app={state.app} onManage={onManageApps} />
      <nav class="nav" aria-label="Main">
        {link('issues', 'Issues', 'list')}
        {/* Reference §7: Analytics only while the access_analytics plugin is on (or its page is open). */}
        {(state.view === 'analytics' || plugins.data?.data.some((plugin) => plugin.id === 'access_analytics' && plugin.enabled)) && link('analytics', 'Analytics', 'chart')}
        {link('settings', 'Settings', 'settings')}
      </nav>
      <SourcesList app={state.app} active={state.source} />
    </aside>
  )
}
