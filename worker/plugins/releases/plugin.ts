import { definePlugin } from '../plugin.ts'

/** Listed in the catalog and not yet available (`planned`): switching it on is refused until it is built. */
export const releasesPlugin = definePlugin({
  id: 'releases',
  name: 'Release tracking',
  description: 'Record deploys, upload source maps and show which release introduced an issue.',
  category: 'Insights',
  status: 'planned',
  defaultEnabled: false,
})
