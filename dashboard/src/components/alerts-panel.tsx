import { ApiError } from '../api/api-error.ts'
import { listAlertChannels, listAlertEvents, listAlertRules, listModules } from '../api/endpoints.ts'
import { useApi } from '../state/use-api.ts'
import { navigate } from '../state/url-state.ts'
import { AlertChannelsSection } from './alert-channels-section.tsx'
import { AlertEventsSection } from './alert-events-section.tsx'
import { AlertRulesSection } from './alert-rules-section.tsx'
import { ErrorBanner } from './error-banner.tsx'
import { Spinner } from './spinner.tsx'

/**
 * Settings → Alerts (issue 13, docs/alerts.md): channels (with "Send test"), rules, and the delivery log.
 * While the plugin is off for the application the panel says so and links to Plugins.
 */
export function AlertsPanel({ app }: { app: string }) {
  const channels = useApi(`alert-channels:${app}`, listAlertChannels)
  const rules = useApi(channels.data ? `alert-rules:${app}` : null, listAlertRules)
  const events = useApi(channels.data ? `alert-events:${app}` : null, listAlertEvents)
  const modules = useApi(channels.data ? `modules:${app}` : null, listModules)

  if (channels.error instanceof ApiError && channels.error.status === 404) {
    return (
      <section class="panel settings-panel" aria-labelledby="alerts-heading">
        <h2 id="alerts-heading" class="panel-title">Alerts</h2>
        <p class="muted">Alerting is off for this application.</p>
        <button type="button" class="button button-primary" onClick={() => navigate({ tab: 'plugins' })}>
          Switch it on in Plugins
        </button>
      </section>
    )
  }
  const failed = channels.error ?? rules.error ?? events.error
  if (failed) return <ErrorBanner error={failed} onRetry={() => [channels, rules, events].forEach((state) => state.reload())} context="Alerting unavailable" />
  if (!channels.data || !rules.data || !events.data) return <Spinner />
  return (
    <>
      <AlertChannelsSection channels={channels.data.data} />
      <AlertRulesSection rules={rules.data.data} channels={channels.data.data} modules={modules.data?.data ?? []} />
      <AlertEventsSection events={events.data.data} />
    </>
  )
}
