import type { Statement } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { appSettings } from '../settings/app-settings.ts'
import type { HookFailure } from '../../shared/schemas/plugin.ts'
import type { Plugin } from './plugin.ts'

/** Each plugin's switch and last failure for one application, as stored. */
export interface PluginSettings {
  /** Only plugins the application switched explicitly; the rest follow their `defaultEnabled`. */
  readonly enabled: ReadonlyMap<string, boolean>
  readonly failures: ReadonlyMap<string, HookFailure>
}

/**
 * One `app_settings` key per plugin and fact — `plugin.<id>.enabled` and `plugin.<id>.last_error` — rather
 * than the reference's one JSON object per kind (`plugins.state`, `plugins.failures`): each write is then a
 * single upsert, so two people switching two plugins at once, or two hooks failing at once, never overwrite
 * each other's change (docs/deviations.md).
 */
export const pluginSettingKeys = {
  enabled: (id: string) => `plugin.${id}.enabled`,
  lastError: (id: string) => `plugin.${id}.last_error`,
}

/** Reads every setting of the given plugins in one statement. */
export function readPluginSettings(scope: AppScope, plugins: readonly Plugin[], alsoKeys: readonly string[] = []): Statement {
  const keys = [...plugins.flatMap((plugin) => [pluginSettingKeys.enabled(plugin.id), pluginSettingKeys.lastError(plugin.id)]), ...alsoKeys]
  const key = scope.db.dialect.quote('key')
  return { sql: `SELECT ${key} AS k, value FROM ${scope.t.settings} WHERE ${key} IN (${keys.map(() => '?').join(', ')})`, args: keys }
}

/** The stored values among `readPluginSettings` rows, by key: of `keys` only (read with `alsoKeys`), or all. */
export function settingValues(rows: readonly Record<string, unknown>[], keys?: readonly string[]): Map<string, string> {
  const values = new Map<string, string>()
  for (const row of rows) if (typeof row.k === 'string' && typeof row.value === 'string' && (keys?.includes(row.k) ?? true)) values.set(row.k, row.value)
  return values
}

/** Decodes `readPluginSettings` rows; a value that does not decode counts as unset (the default applies). */
export function decodePluginSettings(plugins: readonly Plugin[], rows: readonly Record<string, unknown>[]): PluginSettings {
  const values = settingValues(rows)
  const enabled = new Map<string, boolean>()
  const failures = new Map<string, HookFailure>()
  for (const plugin of plugins) {
    const stored = values.get(pluginSettingKeys.enabled(plugin.id))
    if (stored === 'true' || stored === 'false') enabled.set(plugin.id, stored === 'true')
    const failure = decodeFailure(values.get(pluginSettingKeys.lastError(plugin.id)))
    if (failure) failures.set(plugin.id, failure)
  }
  return { enabled, failures }
}

function decodeFailure(value: string | undefined): HookFailure | null {
  if (value === undefined) return null
  try {
    const parsed: unknown = JSON.parse(value)
    if (typeof parsed !== 'object' || parsed === null) return null
    const { hook, message, at } = parsed as Record<string, unknown>
    if (typeof hook !== 'string' || typeof message !== 'string' || typeof at !== 'string') return null
    if (hook !== 'afterIngest' && hook !== 'resolveStack' && hook !== 'statusChanged' && hook !== 'maintain') return null
    return { hook, message, at }
  } catch {
    return null
  }
}

/** Whether a plugin runs for the application: only an `active` one, as switched or by its default. */
export function isPluginEnabled(plugin: Plugin, settings: PluginSettings): boolean {
  return plugin.status === 'active' && (settings.enabled.get(plugin.id) ?? plugin.defaultEnabled)
}

export const pluginSettingWrites = {
  enabled: (scope: AppScope, id: string, enabled: boolean, now: string): Statement => appSettings.write(scope, pluginSettingKeys.enabled(id), String(enabled), now),
  failure: (scope: AppScope, id: string, failure: HookFailure, now: string): Statement =>
    appSettings.write(scope, pluginSettingKeys.lastError(id), JSON.stringify(failure), now),
  clearFailure: (scope: AppScope, id: string): Statement => appSettings.remove(scope, pluginSettingKeys.lastError(id)),
}
