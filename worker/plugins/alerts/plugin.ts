import { definePlugin, type HookServices } from '../plugin.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { scanAlerts } from './alert-scan.ts'
import { ALERTS_SECTION } from './alerts-config.ts'
import { ALERT_ROUTES } from './routes.ts'
import { resendStalledAlerts } from './resend-stalled.ts'
import { ScanScheduler } from './scan-scheduler.ts'

/**
 * Alerting (reference §4.2, issue 13, docs/alerts.md): Slack, Discord and webhook channels, rules for new,
 * reoccurring and spiking issues, a scan after every ingest — run after the response, so delivery never
 * slows ingest — and the log of what was sent. The cron trigger sends alerts a scan claimed but could not
 * deliver before its isolate ended.
 */
export const alertsPlugin = definePlugin({
  id: 'alerts',
  name: 'Alerting',
  description: 'Send Slack, Discord or webhook messages for new, reoccurring and spiking issues.',
  category: 'Notifications',
  status: 'active',
  defaultEnabled: false,
  config: ALERTS_SECTION,
  routes: ALERT_ROUTES,
  hooks: {
    afterIngest: async ({ scope, services }) => {
      scans.schedule(scope.app.id, () => scan(scope, services), services.waitUntil)
    },
    maintain: async ({ scope, now, services }) => {
      await resendStalledAlerts(scope, services.secrets, services.config.section(ALERTS_SECTION), now)
    },
  },
})

/** Per isolate (module scope): one scan at a time per application. */
const scans = new ScanScheduler()

function scan(scope: AppScope, services: HookServices) {
  return scanAlerts({ scope, secrets: services.secrets, settings: services.config.section(ALERTS_SECTION), serviceUrl: services.config.serviceUrl, now: new Date() })
}
