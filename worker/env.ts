import type { D1Like } from '../drivers/d1.ts'

/**
 * The variables, secrets and bindings every runtime may hand the app (README "Configuration"). Each is
 * optional because a deployment may leave any of them out. Platform bindings stay at the edge: on Workers
 * the generated `Cloudflare.Env` (worker/platform/cloudflare/cloudflare-env.ts) adds R2, the Queue and
 * D1's own type; Deno (worker/platform/deno/) fills these from its environment and the filesystem.
 */
export interface Env {
  /** The embedded D1 database (Workers only); used when no `DATABASE_URL` is set. */
  readonly DB?: D1Like
  /** The dashboard's built files (`[assets]` on Workers, `dashboard/dist` read from disk on Deno). */
  readonly ASSETS?: AssetServer

  readonly DATABASE_DRIVER?: string
  readonly DATABASE_URL?: string
  readonly DATABASE_TOKEN?: string
  /** Neon only: the SQL-over-HTTP endpoint, when it is not derived from the connection string. */
  readonly DATABASE_ENDPOINT?: string
  /** JSON object `{ "<app id>": { driver, url, token?, endpoint? } }` giving applications their own databases. */
  readonly APP_DATABASES?: string

  readonly SERVICE_TOKEN?: string
  readonly SERVICE_URL?: string
  readonly SERVICE_SECRET?: string
  /** JSON object of dotted configuration keys (`auth.token`, `pagination.default_limit`, …). */
  readonly SERVICE_CONFIG?: string
  /**
   * The issue tracker's API key and webhook secret from the environment (reference §4.5's
   * `LOG_LENS_LINEAR_API_KEY` / `…_WEBHOOK_SECRET`): when set they win over stored ones and lock them.
   */
  readonly TRACKER_API_KEY?: string
  readonly TRACKER_WEBHOOK_SECRET?: string
}

/** Serves static files for a request (a Workers `Fetcher` fits). */
export interface AssetServer {
  fetch(request: Request): Promise<Response>
}
