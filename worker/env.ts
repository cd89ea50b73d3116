import type { ImportMessage } from './jobs/job-message.ts'

/**
 * The worker's bindings and variables (README "Configuration"). Secrets (`SERVICE_TOKEN`,
 * `SERVICE_SECRET`, `DATABASE_URL`, `DATABASE_TOKEN`, `APP_DATABASES`) come from wrangler secrets or
 * `.dev.vars`; everything else from `[vars]`.
 */
export interface Env {
  /** The embedded default database, used when `DATABASE_URL` is empty. */
  readonly DB?: D1Database
  /** The dashboard's static files (`[assets]`). */
  readonly ASSETS?: Fetcher
  /** Log storage: incoming files, the processed archive, connector mirrors (design.md §3). */
  readonly LOGS?: R2Bucket
  /** Background imports: jobs continue through this queue, consumed by the worker's `queue` handler. */
  readonly IMPORT_QUEUE?: Queue<ImportMessage>

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
