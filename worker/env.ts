/**
 * The worker's bindings and variables (README "Configuration"). The bindings come from wrangler.toml, typed by
 * `wrangler types` in worker/worker-configuration.d.ts (`npm run typegen` rewrites it; `npm test` fails when
 * it is out of date); each is optional here because a deployment may leave any of them out. Secrets
 * (`SERVICE_TOKEN`, `SERVICE_SECRET`, `DATABASE_URL`, `DATABASE_TOKEN`, `APP_DATABASES`) come from wrangler
 * secrets or `.dev.vars`, which `wrangler types` cannot see, so they are declared here.
 */
export interface Env extends Partial<Cloudflare.Env> {
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
}
