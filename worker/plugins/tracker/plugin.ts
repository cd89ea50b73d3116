import { definePlugin } from '../plugin.ts'

/** Listed in the catalog and not yet available (`planned`): switching it on is refused until it is built. */
export const trackerPlugin = definePlugin({
  id: 'tracker',
  name: 'Issue tracker',
  description: 'Create Linear or GitHub issues from Loupe issues and keep their status in step both ways.',
  category: 'Integration',
  status: 'planned',
  defaultEnabled: true,
})
