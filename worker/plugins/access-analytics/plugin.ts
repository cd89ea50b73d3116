import { definePlugin } from '../plugin.ts'

/** Listed in the catalog and not yet available (`planned`): switching it on is refused until it is built. */
export const accessAnalyticsPlugin = definePlugin({
  id: 'access_analytics',
  name: 'Access-log analytics',
  description: 'Traffic, status codes and slow endpoints from imported access logs.',
  category: 'Insights',
  status: 'planned',
  defaultEnabled: false,
})
