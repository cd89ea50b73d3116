import { definePlugin } from '../plugin.ts'
import { TRACKER_SECTION } from './tracker-config.ts'
import { TRACKER_ROUTES } from './routes.ts'
import { WRITE_BACK_SETTINGS, writeBackReads, writeBackStatus } from './tracker-writeback.ts'

/**
 * The issue-tracker integration (seed §4.1 `tracker-*`, reference §4.5's Linear integration, issue 16,
 * docs/tracker.md): settings with sealed credentials, a connection test, a paged sync of filtered tracker issues
 * into Loupe issues, status write-back, a signed webhook that triggers the sync, and push (a tracker issue
 * created from a Loupe issue). Trackers sit behind one interface (tracker.ts): Linear and GitHub Issues. On by default, as
 * in the reference; nothing happens until it is configured and enabled.
 */
export const trackerPlugin = definePlugin({
  id: 'tracker',
  name: 'Issue tracker',
  description: 'Create Linear or GitHub issues from Loupe issues and keep their status in step both ways.',
  category: 'Integration',
  status: 'active',
  defaultEnabled: true,
  config: TRACKER_SECTION,
  routes: TRACKER_ROUTES,
  statusChangeReads: writeBackReads,
  statusChangeSettings: WRITE_BACK_SETTINGS,
  hooks: {
    statusChanged: async ({ scope, now, services, issueId, status, note, prefetched, settingValues }) =>
      writeBackStatus(
        {
          scope,
          secrets: services.secrets,
          config: services.config.section(TRACKER_SECTION),
          env: services.config.trackerEnv,
          hasSecret: services.config.hasSecret,
          baseUrl: services.config.serviceUrl ?? 'http://localhost',
          now,
        },
        issueId,
        status as Parameters<typeof writeBackStatus>[2],
        note,
        prefetched,
        settingValues,
      ),
  },
})
