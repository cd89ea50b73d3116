import { listPlugins, setPluginEnabled } from '../api/endpoints.ts'
import { useApi } from '../state/use-api.ts'
import { useMutation } from '../state/use-mutation.ts'
import { ErrorBanner } from './error-banner.tsx'
import { Spinner } from './spinner.tsx'

/**
 * Settings → Plugins (reference §4.1): each plugin with its switch for this application and the last failure
 * of its hooks. Planned plugins are listed so users see what is coming; their switch is disabled.
 */
export function PluginsPanel({ app }: { app: string }) {
  const plugins = useApi(`plugins:${app}`, listPlugins)
  const { pending, run } = useMutation<string>()
  if (plugins.error) return <ErrorBanner error={plugins.error} onRetry={plugins.reload} context="Plugins unavailable" />
  if (!plugins.data) return <Spinner />

  const toggle = (id: string, name: string, enabled: boolean) =>
    run(() => setPluginEnabled(id, enabled), { done: () => `${name} ${enabled ? 'enabled' : 'disabled'}`, failure: `Could not switch ${name}` }, id)

  return (
    <section class="panel settings-panel" aria-labelledby="plugins-heading">
      <h2 id="plugins-heading" class="panel-title">Plugins</h2>
      <p class="muted">Plugins are switched per application. A failing plugin never stops imports or triage; its last error is shown here until it next succeeds.</p>
      <ul class="plugin-list" data-testid="plugin-list">
        {plugins.data.data.map((plugin) => (
          <li key={plugin.id} class="plugin-item" data-plugin={plugin.id}>
            <div class="plugin-text">
              <strong>{plugin.name}</strong> <span class="muted small">{plugin.category}</span>
              {plugin.status === 'planned' && <span class="badge badge-muted">Coming soon</span>}
              <p class="muted small">{plugin.description}</p>
              {plugin.last_error && (
                <p class="field-error small" role="status">
                  Last error ({plugin.last_error.hook}, {plugin.last_error.at} UTC): {plugin.last_error.message}
                </p>
              )}
            </div>
            <label class="plugin-switch">
              <input
                type="checkbox"
                role="switch"
                checked={plugin.enabled}
                disabled={plugin.status !== 'active' || pending !== null}
                aria-label={`${plugin.name} enabled`}
                onChange={(event) => void toggle(plugin.id, plugin.name, event.currentTarget.checked)}
              />
              {pending === plugin.id ? 'Saving…' : plugin.enabled ? 'On' : 'Off'}
            </label>
          </li>
        ))}
      </ul>
    </section>
  )
}
