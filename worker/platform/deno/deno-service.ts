import { createApp, createDeps, type App } from '../../app.ts'
import type { Env } from '../../env.ts'
import { logFailure } from '../../log-failure.ts'
import { runScheduledMaintenance } from '../../maintenance/scheduled.ts'
import type { RequestContext } from '../../runtime.ts'
import { directoryAssets } from './directory-assets.ts'
import { fsLogStore } from './fs-log-store.ts'
import { inProcessJobQueue } from './in-process-job-queue.ts'

/** The settings the Deno entry reads from its environment: the shared ones (worker/env.ts) and its own. */
export interface DenoSettings {
  readonly [name: string]: string | undefined
  /** Where log files live (default `.loupe/logs`): incoming drops, staged uploads and the archive. */
  readonly LOGS_DIR?: string
  /** The built dashboard (default `dashboard/dist`, what `npm run build` writes). */
  readonly ASSETS_DIR?: string
  /** Minutes between scheduled maintenance runs, as the Workers cron (default 15; 0 turns it off). */
  readonly MAINTENANCE_INTERVAL_MINUTES?: string
}

/** The shared variables and secrets the app reads (worker/env.ts); nothing else of the process environment. */
const ENV_NAMES = [
  'DATABASE_DRIVER',
  'DATABASE_URL',
  'DATABASE_TOKEN',
  'DATABASE_ENDPOINT',
  'APP_DATABASES',
  'SERVICE_TOKEN',
  'SERVICE_URL',
  'SERVICE_SECRET',
  'SERVICE_CONFIG',
  'TRACKER_API_KEY',
  'TRACKER_WEBHOOK_SECRET',
] as const

export interface DenoService {
  readonly app: App<Env>
  readonly env: Env
  /** Serves one request; work after the response runs on in this process. */
  fetch(request: Request): Promise<Response>
}

/**
 * Loupe on Deno: the same app as on Workers, with logs in a directory, import jobs in this process, the
 * dashboard from disk and maintenance on a timer. Databases are reached over HTTP as on Workers (libsql,
 * neon, planetscale; D1 exists only on Workers).
 */
export function createDenoService(settings: DenoSettings): DenoService {
  const env: Env = {
    ...Object.fromEntries(ENV_NAMES.flatMap((name) => (settings[name] !== undefined ? [[name, settings[name]]] : []))),
    ASSETS: directoryAssets(settings.ASSETS_DIR ?? 'dashboard/dist'),
  }
  const ctx: RequestContext = {
    waitUntil(promise) {
      promise.catch((error) => logFailure('work after the response failed', error))
    },
  }
  const logs = fsLogStore(settings.LOGS_DIR ?? '.loupe/logs')
  const jobs = inProcessJobQueue(() => createDeps(env, ctx, app))
  const app = createApp<Env>({ runtime: { logStore: () => logs, jobQueue: () => jobs } })

  const minutes = Number(settings.MAINTENANCE_INTERVAL_MINUTES ?? 15)
  if (Number.isFinite(minutes) && minutes > 0) {
    setInterval(() => ctx.waitUntil(runScheduledMaintenance(createDeps(env, ctx, app), `*/${minutes} * * * *`)), minutes * 60_000)
  }
  return { app, env, fetch: (request) => app.fetch(request, env, ctx) }
}
