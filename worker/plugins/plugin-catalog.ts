import type { AppScope } from '../apps/app-scope.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { InvalidInputError } from '../errors.ts'
import type { Plugin } from './plugin.ts'
import { PLUGIN_MESSAGES, type PluginToggle, type PluginView } from '../../shared/schemas/plugin.ts'
import { decodePluginSettings, isPluginEnabled, pluginSettingWrites, readPluginSettings, type PluginSettings } from './plugin-settings.ts'

/** `GET ?api=plugins`: the catalog with the application's switches and last hook failures — one round trip. */
export async function listPlugins(scope: AppScope, plugins: readonly Plugin[]): Promise<{ data: PluginView[] }> {
  const settings = await loadPluginSettings(scope, plugins)
  return { data: present(plugins, settings) }
}

/**
 * `POST ?api=plugins {id, enabled}`: switches one plugin for the application and returns the catalog. The write
 * and the read-back are one batch (one round trip; on PlanetScale two, the read-back after the one-statement
 * write); only `active` plugins can be switched on, and switching
 * one off is always allowed (reference §3.5).
 */
export async function setPluginEnabled(scope: AppScope, plugins: readonly Plugin[], toggle: PluginToggle, now: string): Promise<{ data: PluginView[] }> {
  const plugin = plugins.find((candidate) => candidate.id === toggle.id)
  if (!plugin) throw new InvalidInputError(PLUGIN_MESSAGES.unknown(toggle.id))
  if (toggle.enabled && plugin.status !== 'active') throw new InvalidInputError(PLUGIN_MESSAGES.planned(plugin.name))
  const { settings } = await namedBatch(scope.db, { toggle: pluginSettingWrites.enabled(scope, plugin.id, toggle.enabled, now), settings: readPluginSettings(scope, plugins) }, { readBack: ['settings'] })
  return { data: present(plugins, decodePluginSettings(plugins, settings.rows)) }
}

/** The plugins' stored switches and failures for one application (one statement). */
export async function loadPluginSettings(scope: AppScope, plugins: readonly Plugin[]): Promise<PluginSettings> {
  if (plugins.length === 0) return { enabled: new Map(), failures: new Map() }
  return decodePluginSettings(plugins, (await scope.db.execute(readPluginSettings(scope, plugins))).rows)
}

function present(plugins: readonly Plugin[], settings: PluginSettings): PluginView[] {
  return plugins.map((plugin) => ({
    id: plugin.id,
    name: plugin.name,
    description: plugin.description,
    category: plugin.category,
    status: plugin.status,
    enabled: isPluginEnabled(plugin, settings),
    last_error: settings.failures.get(plugin.id) ?? null,
  }))
}
