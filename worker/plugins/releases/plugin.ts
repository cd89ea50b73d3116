import { definePlugin } from '../plugin.ts'
import { resolveStack } from './resolve-stack.ts'
import { RELEASE_ROUTES } from './routes.ts'
import { sentryCliPaths } from './sentry-cli/routes.ts'

/**
 * Release tracking (reference §4.4, issue 14, docs/releases.md): recorded deploys, the releases ingested
 * events name (registered by the digest, with each issue's first and regressed release), the code-host link
 * of an issue's frame, and source maps kept in the log bucket. Off by default, as in the reference.
 */
export const releasesPlugin = definePlugin({
  id: 'releases',
  name: 'Release tracking',
  description: 'Record deploys, upload source maps and show which release introduced an issue.',
  category: 'Insights',
  status: 'active',
  defaultEnabled: false,
  routes: RELEASE_ROUTES,
  paths: sentryCliPaths(() => releasesPlugin),
  hooks: { resolveStack },
})
