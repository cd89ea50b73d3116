import type { Plugin } from './plugin.ts'
import { accessAnalyticsPlugin } from './access-analytics/plugin.ts'
import { alertsPlugin } from './alerts/plugin.ts'
import { httpIngestPlugin } from './http-ingest/plugin.ts'
import { releasesPlugin } from './releases/plugin.ts'
import { trackerPlugin } from './tracker/plugin.ts'

/**
 * The built-in plugins, in catalog order (reference §4.1; the reference's `linear` is `tracker` here, since it
 * serves GitHub too — docs/deviations.md). Adding a plugin is its folder and one line here.
 */
export const BUILTIN_PLUGINS: readonly Plugin[] = [trackerPlugin, alertsPlugin, httpIngestPlugin, releasesPlugin, accessAnalyticsPlugin]

/**
 * The catalog with `extra` plugins layered over it: a later plugin with an id already present replaces the
 * earlier one in place (reference §4.1 "a later registration with the same id overrides an earlier one").
 */
export function pluginCatalog(extra: readonly Plugin[] = [], builtins: readonly Plugin[] = BUILTIN_PLUGINS): readonly Plugin[] {
  const byId = new Map<string, Plugin>()
  for (const plugin of [...builtins, ...extra]) byId.set(plugin.id, plugin)
  return [...byId.values()]
}
