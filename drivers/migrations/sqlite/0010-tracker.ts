import type { Migration } from '../migration.ts'

/**
 * Migration 0010 (application): the issue-tracker integration (reference §4.5, issue 16, docs/tracker.md).
 * - `tracker_links`: the tracker issue each Loupe issue is tied to, at most one per issue — created from Loupe
 *   (`via = 'push'`) or mirrored by a sync (`via = 'sync'`, the issue's `external_*` columns say the same). The
 *   status write-back and the inspector read it; `state` is the tracker's state name when last seen. Unique on
 *   (provider, external_id): a tracker issue is linked once, so a sync finds a pushed issue instead of mirroring it.
 * Settings and the sync cursor live in `app_settings` (`tracker.integration`, `tracker.sync`).
 */
export const application0010: Migration = {
  version: 10,
  name: 'tracker',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}tracker_links" (
      group_id INTEGER PRIMARY KEY REFERENCES "${p}error_groups" (id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      external_id TEXT NOT NULL,
      identifier TEXT NOT NULL,
      url TEXT NOT NULL,
      state TEXT,
      via TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT,
      UNIQUE (provider, external_id)
    )`,
  ],
}
