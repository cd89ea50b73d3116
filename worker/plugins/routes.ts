import { readJson } from '../http/read-body.ts'
import { json } from '../http/respond.ts'
import { Router } from 'itty-router'
import { route, type ApiRequest, type ApiRouter } from '../http/router.ts'
import { toErrorResponse } from '../http/error-response.ts'
import type { AppScope } from '../apps/app-scope.ts'
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
    const requireEnabled = (request: ApiRequest) => requirePluginEnabled(scopeOf(request), plugin)
    for (const endpoint of plugin.routes ?? []) route(router, `/${endpoint.endpoint}`, endpoint.handlers, endpoint.checksEnabled ? [withApp] : [withApp, requireEnabled])
  }
}

/**
 * The router of plugins' own paths (`Plugin.paths`), tried for requests without `?api=` before the
 * dashboard: no API guard, errors in the JSON envelope, and no answer at all (undefined) for a path no plugin
 * owns, so the dashboard serves it.
 */
export function createPluginPathRouter(plugins: readonly Plugin[]): ApiRouter {
  const router: ApiRouter = Router<ApiRequest, [Deps]>({ catch: (error) => toErrorResponse(error) })
  for (const plugin of plugins) for (const path of plugin.paths ?? []) route(router, path.path, path.handlers)
  return router
}

/** 404 "This plugin is disabled for the selected application." unless `plugin` is on for the scope's application. */
export async function requirePluginEnabled(scope: AppScope, plugin: Plugin): Promise<void> {
  const settings = await loadPluginSettings(scope, [plugin])
  if (!isPluginEnabled(plugin, settings)) throw new NotFoundError(PLUGIN_MESSAGES.disabled)
}
