import { AppError, MethodNotAllowedError, PayloadTooLargeError, RateLimitedError } from '../errors.ts'
import { DriverError } from '../../drivers/driver-error.ts'
import { DatabaseConfigError } from '../../drivers/index.ts'
import { json } from './respond.ts'
import { logFailure } from '../log-failure.ts'

const STATUS: Record<AppError['kind'], number> = {
  invalid: 422,
  malformed: 400,
  operational: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method: 405,
  too_large: 413,
  unsupported: 415,
  rate_limited: 429,
}

/** Fixed texts for failures whose details must stay server-side (design.md §4: no SQL, no stacks, no secrets). */
export const DATABASE_ERROR_MESSAGE = 'A database error occurred. The details are in the server log.'
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable. Try again shortly.'
export const DATABASE_TIMEOUT_MESSAGE = 'The database did not answer in time. Try again shortly.'
export const DATABASE_MISCONFIGURED_MESSAGE = 'The database is not configured correctly. See ?api=health for details.'
export const UNEXPECTED_ERROR_MESSAGE = 'Unexpected server error. The details are in the server log.'

/**
 * The only error → HTTP mapping in the worker. App errors keep their message; driver errors and bugs get a
 * fixed message and are logged with their cause (never echoed).
 */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof AppError) {
    const headers: Record<string, string> = {}
    if (error instanceof MethodNotAllowedError) headers.allow = error.allowed.join(', ')
    let extra: Readonly<Record<string, unknown>> = {}
    if (error instanceof RateLimitedError) {
      Object.assign(headers, error.details.headers, { 'retry-after': String(error.retryAfterSeconds) })
      extra = error.details.body ?? {}
    }
    if (error.kind === 'unauthorized') headers['www-authenticate'] = 'Bearer'
    if (error instanceof PayloadTooLargeError) headers.connection = 'close'
    return json({ error: error.message, ...extra }, STATUS[error.kind], headers)
  }
  logFailure('request failed', error)
  if (error instanceof DriverError) {
    if (error.code === 'timeout') return json({ error: DATABASE_TIMEOUT_MESSAGE }, 503)
    const unreachable = error.code === 'connection'
    return json({ error: unreachable ? DATABASE_UNAVAILABLE_MESSAGE : DATABASE_ERROR_MESSAGE }, unreachable ? 503 : 500)
  }
  if (error instanceof DatabaseConfigError) return json({ error: DATABASE_MISCONFIGURED_MESSAGE }, 503)
  return json({ error: UNEXPECTED_ERROR_MESSAGE }, 500)
}
