import { readConfig } from './config.ts'
import type { Deps } from './deps.ts'
import type { Env } from './env.ts'
import { ApplicationRegistry } from './apps/registry.ts'
import { registerApplicationRoutes } from './apps/routes.ts'
import { RequestDatabases } from './db/request-databases.ts'
import { registerHealthRoutes } from './health/routes.ts'
import { json } from './http/respond.ts'
import { createRouter, UNKNOWN_ENDPOINT_MESSAGE, type ApiRouter } from './http/router.ts'
import { serveDashboard } from './http/serve-dashboard.ts'
import { registerTagRoutes } from './tags/routes.ts'
import { registerImportRoutes } from './intake/routes.ts'
import { registerMaintenanceRoutes } from './maintenance/routes.ts'
import { registerSettingsRoutes } from './settings/routes.ts'
import { registerSourceRoutes } from './sources/routes.ts'
import { registerSummaryRoutes } from './summary/routes.ts'
import { registerIssueRoutes } from './issues/routes.ts'
import { registerModuleRoutes } from './modules/routes.ts'
import { BUILTIN_PLUGINS } from './plugins/catalog.ts'
import type { Plugin } from './plugins/plugin.ts'
import type { ConfigSection } from './config/config-section.ts'
import { createPluginPathRouter, registerPluginRoutes } from './plugins/routes.ts'
import { r2LogStore } from './platform/r2-log-store.ts'
import { cloudflareJobQueue } from './platform/cloudflare-job-queue.ts'
import { createSecretBox } from './security/secret-box.ts'

/** `api` values are kebab-case words; anything else cannot name an endpoint. */
const API_NAME = /^[a-z][a-z0-9-]{0,63}$/

export interface App {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response>
  /** Per-isolate caches, exposed for the scheduled handler. */
  readonly registry: ApplicationRegistry
  /** The plugin catalog the app serves (its routes are registered; its hooks run). */
  readonly plugins: readonly Plugin[]
}

/**
 * The worker: `/?api=<name>` goes to the API router with the name as its path (`?api=tags` → `/tags`), so
 * method matching, 404 and 405 come from the router (design.md §1); every other request is the dashboard.
 */
export function createApp(options: { readonly plugins?: readonly Plugin[] } = {}): App {
  const plugins = options.plugins ?? BUILTIN_PLUGINS
  const router: ApiRouter = createRouter()
  registerHealthRoutes(router)
  registerApplicationRoutes(router)
  registerTagRoutes(router)
  registerSettingsRoutes(router)
  registerImportRoutes(router)
  registerSummaryRoutes(router)
  registerSourceRoutes(router)
  registerMaintenanceRoutes(router)
  registerIssueRoutes(router)
  registerModuleRoutes(router)
  registerPluginRoutes(router, plugins)
  const pluginPaths = createPluginPathRouter(plugins)
  const hasPluginPaths = plugins.some((plugin) => (plugin.paths ?? []).length > 0)
  const registry = new ApplicationRegistry()

  return {
    registry,
    plugins,
    async fetch(request, env, ctx) {
      const url = new URL(request.url)
      const api = url.searchParams.get('api')
      if (api === null) {
        // Plugins' own paths (Sentry's `/api/<project>/envelope/`) come before the dashboard's files.
        const answer = hasPluginPaths ? await pluginPaths.fetch(request, createDeps(env, ctx, registry, plugins)) : undefined
        return answer ?? serveDashboard(request, env)
      }
      // A name that cannot be a route is not worth a trip through the guard and the router.
      if (!API_NAME.test(api)) return json({ error: UNKNOWN_ENDPOINT_MESSAGE }, 404)
      return router.fetch(new Request(new URL(`/${api}${url.search}`, url), request), createDeps(env, ctx, registry, plugins))
    },
  }
}

export function createDeps(env: Env, ctx: ExecutionContext, registry: ApplicationRegistry, plugins: readonly Plugin[] = BUILTIN_PLUGINS): Deps {
  return {
    plugins,
    config: readConfig(env, pluginSections(plugins)),
    logs: env.LOGS ? r2LogStore(env.LOGS) : null,
    jobs: env.IMPORT_QUEUE ? cloudflareJobQueue(env.IMPORT_QUEUE) : null,
    secrets: createSecretBox(env.SERVICE_SECRET),
    databases: new RequestDatabases(env),
    registry,
    now: () => new Date(),
    waitUntil: (promise) => ctx.waitUntil(promise),
  }
}

/** The configuration sections the plugins bring (one list per catalog, so `readConfig`'s cache holds). */
const sectionLists = new WeakMap<readonly Plugin[], readonly ConfigSection<unknown>[]>()
function pluginSections(plugins: readonly Plugin[]): readonly ConfigSection<unknown>[] {
  let sections = sectionLists.get(plugins)
  if (!sections) sectionLists.set(plugins, (sections = plugins.flatMap((plugin) => (plugin.config ? [plugin.config] : []))))
  return sections
}
