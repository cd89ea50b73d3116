import { readJson } from '../http/read-body.ts'
import { json } from '../http/respond.ts'
import { route, type ApiRequest, type ApiRouter } from '../http/router.ts'
import { scopeOf, withApp } from '../http/with-app.ts'
import type { Deps } from '../deps.ts'
import { NotFoundError } from '../errors.ts'
import { toTimestamp } from '../time.ts'
import type { Plugin } from './plugin.ts'
import { listPlugins, loadPluginSettings, setPluginEnabled } from './plugin-catalog.ts'
import { PLUGIN_MESSAGES, PluginToggleSchema } from '../../shared/schemas/plugin.ts'
import { isPluginEnabled } from './plugin-settings.ts'

/**
 * `?api=plugins` (reference §3.5) and every plugin's own endpoints. A plugin endpoint opens the application's
 * scope, then answers 404 "This plugin is disabled for the selected application." unless the plugin is on
 * for it (reference §4.1) — one settings read in front of the handler.
 */
export function registerPluginRoutes(router: ApiRouter, plugins: readonly Plugin[]): void {
  const toggle = async (request: ApiRequest, deps: Deps) => {
    const input = await readJson(request, PluginToggleSchema, deps.config.maxBodyBytes)
    return json(await setPluginEnabled(scopeOf(request), plugins, input, toTimestamp(deps.now())))
  }
  route(router, '/plugins', { GET: async (request) => json(await listPlugins(scopeOf(request), plugins)), POST: toggle, PUT: toggle, PATCH: toggle }, [withApp])
  for (const plugin of plugins) {
    const requireEnabled = async (request: ApiRequest) => {
      const settings = await loadPluginSettings(scopeOf(request), [plugin])
      if (!isPluginEnabled(plugin, settings)) throw new NotFoundError(PLUGIN_MESSAGES.disabled)
    }
    for (const endpoint of plugin.routes ?? []) route(router, `/${endpoint.endpoint}`, endpoint.handlers, [withApp, requireEnabled])
  }
}
