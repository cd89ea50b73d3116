import type { DriverName } from './driver.ts'

/**
 * What went wrong, in terms the application can act on:
 * - `constraint`: a unique, foreign-key or not-null rule refused the write;
 * - `syntax`: the SQL (or an object it names) is wrong — a bug;
 * - `connection`: the database could not be reached or answered with a transport failure;
 * - `timeout`: it did not answer in time;
 * - `unsupported`: the engine cannot do what was asked;
 * - `unknown`: anything else.
 */
export type DriverErrorCode = 'constraint' | 'syntax' | 'connection' | 'timeout' | 'unsupported' | 'unknown'

/**
 * The one error type that leaves `drivers/`. Each driver maps its client's native error to it, inside the
 * driver file, and keeps the original as `cause` for the server log. Its message may contain SQL or engine
 * text, so it is never shown to API clients (worker/http/error-response.ts).
 */
export class DriverError extends Error {
  override readonly name = 'DriverError'
  constructor(
    readonly code: DriverErrorCode,
    readonly driver: DriverName,
    message: string,
    options?: { cause?: unknown; statementIndex?: number },
  ) {
    super(message, { cause: options?.cause })
    this.statementIndex = options?.statementIndex
  }
  readonly statementIndex: number | undefined
}

/** True when a fetch() failure means the database host could not be reached at all. */
export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  if (error.name === 'TypeError' && /fetch|network|connect/i.test(error.message)) return true
  return /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|network connection lost|fetch failed/i.test(error.message)
}
