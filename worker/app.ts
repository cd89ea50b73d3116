import { readConfig } from './config.ts'
import type { Deps } from './deps.ts'
import type { Env } from './env.ts'
import type { RequestContext, Runtime } from './runtime.ts'
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
import { registerConnectorRoutes } from './connectors/routes.ts'
import { BUILTIN_PLUGINS } from './plugins/catalog.ts'
import type { Plugin } from './plugins/plugin.ts'
import type { ConfigSection } from './config/config-section.ts'
import { createPluginPathRouter, registerPluginRoutes } from './plugins/routes.ts'
import { createSecretBox } from './security/secret-box.ts'

/** `api` values are kebab-case words; anything else cannot name an endpoint. */
const API_NAME = /^[a-z][a-z0-9-]{0,63}$/

export interface App<E extends Env = Env> {
  fetch(request: Request, env: E, ctx: RequestContext): Promise<Response>
  /** Per-isolate caches, exposed for the scheduled handler. */
  readonly registry: ApplicationRegistry
  /** The plugin catalog the app serves (its routes are registered; its hooks run). */
  readonly plugins: readonly Plugin[]
  /** Where this runtime keeps log files and continues jobs. */
  readonly runtime: Runtime<E>
}

export interface AppOptions<E extends Env> {
  /** Default: the built-in catalog (worker/plugins/catalog.ts). */
  readonly plugins?: readonly Plugin[]
  /** The runtime's log store and job queue: `cloudflareRuntime` on Workers, `denoRuntime` on Deno. */
  readonly runtime: Runtime<E>
}

/**
 * The worker: `/?api=<name>` goes to the API router with the name as its path (`?api=tags` → `/tags`), so
 * method matching, 404 and 405 come from the router (design.md §1); every other request is the dashboard.
 */
export function createApp<E extends Env>(options: AppOptions<E>): App<E> {
  const plugins = options.plugins ?? BUILTIN_PLUGINS
  const runtime = options.runtime
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
  registerConnectorRoutes(router)
  registerPluginRoutes(router, plugins)
  const pluginPaths = createPluginPathRouter(plugins)
  const hasPluginPaths = plugins.some((plugin) => (plugin.paths ?? []).length > 0)
  const registry = new ApplicationRegistry()

  const app: App<E> = {
    registry,
    plugins,
    runtime,
    async fetch(request, env, ctx) {
      const url = new URL(request.url)
      const api = url.searchParams.get('api')
      if (api === null) {
        // Plugins' own paths (Sentry's `/api/<project>/envelope/`) come before the dashboard's files.
        const answer = hasPluginPaths ? await pluginPaths.fetch(request, createDeps(env, ctx, app)) : undefined
        return answer ?? serveDashboard(request, env)
      }
      // A name that cannot be a route is not worth a trip through the guard and the router.
      if (!API_NAME.test(api)) return json({ error: UNKNOWN_ENDPOINT_MESSAGE }, 404)
      return router.fetch(new Request(new URL(`/${api}${url.search}`, url), request), createDeps(env, ctx, app))
    },
  }
  return app
}

/** One request's (or one job's, or one scheduled run's) dependencies, from the runtime's environment. */
export function createDeps<E extends Env>(env: E, ctx: RequestContext, app: Pick<App<E>, 'registry' | 'plugins' | 'runtime'>): Deps {
  const { registry, plugins, runtime } = app
  return {
    plugins,
    config: readConfig(env, pluginSections(plugins)),
    logs: runtime.logStore(env),
    jobs: runtime.jobQueue(env),
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
