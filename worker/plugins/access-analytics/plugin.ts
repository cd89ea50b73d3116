import { definePlugin } from '../plugin.ts'
import { pruneAccessRollup } from './access-analytics.ts'
import { ACCESS_ROUTES } from './routes.ts'

/**
 * Access-log analytics (reference §4.6, issue 14, docs/access-analytics.md): requests, status classes, error
 * rate, busiest and failing paths, methods and agents of imported nginx/Apache access logs. It reads the
 * rollup every import keeps of EVERY access line (worker/digest/access-rollup.ts) — kept with the plugin off
 * too, so switching it on shows the history already imported; the cron trigger drops rows older than
 * the 90-day window while it is on. Off by default, as in the reference.
 */
export const accessAnalyticsPlugin = definePlugin({
  id: 'access_analytics',
  name: 'Access-log analytics',
  description: 'Requests, status codes, error rate, top and failing paths, methods and user agents from imported access logs.',
  category: 'Insights',
  status: 'active',
  defaultEnabled: false,
  routes: ACCESS_ROUTES,
  hooks: {
    maintain: async ({ scope, now }) => {
      await pruneAccessRollup(scope, now)
    },
  },
})
