import { booleanSetting, defineSection, integerSetting, urlSetting, type ConfigSection } from '../../config/config-section.ts'

const fields = {
  /** Linear's GraphQL endpoint (default `https://api.linear.app/graphql`): tests point it at tools/servers/linear-server.ts. */
  linear_url: urlSetting(),
  /** GitHub's REST API root (default `https://api.github.com`; GitHub Enterprise: `https://host/api/v3`). */
  github_url: urlSetting(),
  /**
   * Let tracker calls go to http:// and to private, loopback and link-local addresses (design.md §6: for local
   * development and tests only; health warns while it is on).
   */
  allow_local_targets: booleanSetting(false),
  /** Deadline of one call to the tracker. */
  timeout_ms: integerSetting(100, 30_000, 10_000),
  /** Issues per page of a sync (reference §4.5: 50; Linear allows up to 250). */
  sync_page_size: integerSetting(1, 250, 50),
  /** Pages per sync call (reference §4.5: 5); the rest waits for the next call (`has_more`). */
  sync_pages: integerSetting(1, 20, 5),
}

const base = defineSection('tracker', fields)
export type TrackerConfig = ReturnType<typeof base.read>

export const TRACKER_LOCAL_TARGETS_WARNING =
  'SERVICE_CONFIG tracker.allow_local_targets is on: the issue tracker may be called over http:// and on private addresses. Use it for local development and tests only.'

/** `SERVICE_CONFIG` `tracker.*`, with a health warning while local targets are allowed. */
export const TRACKER_SECTION: ConfigSection<TrackerConfig> = {
  ...base,
  read(lookup, warnings) {
    const settings = base.read(lookup, warnings)
    if (settings.allow_local_targets) warnings.push(TRACKER_LOCAL_TARGETS_WARNING)
    return settings
  },
}
