import { definePlugin } from '../plugin.ts'

/** Listed in the catalog and not yet available (`planned`): switching it on is refused until it is built. */
export const alertsPlugin = definePlugin({
  id: 'alerts',
  name: 'Alerting',
  description: 'Send Slack, Discord or webhook messages for new, reoccurring and spiking issues.',
  category: 'Notifications',
  status: 'planned',
  defaultEnabled: false,
})
