/**
 * The application's error vocabulary. Domain code throws these; it never builds status codes itself.
 * `worker/http/error-response.ts` is the one place that turns them into HTTP responses.
 */
export type AppErrorKind =
  | 'invalid' // 422: validation failed
  | 'malformed' // 400: the request could not be read (bad JSON)
  | 'operational' // 400: a valid request that cannot be carried out now
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'method' // 405
  | 'too_large' // 413
  | 'unsupported' // 415
  | 'rate_limited' // 429

export class AppError extends Error {
  constructor(
    readonly kind: AppErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = new.target.name
  }
}

/** 422 — the message is shown to the user as is, so it names the field and the rule. */
export class InvalidInputError extends AppError {
  constructor(message: string) {
    super('invalid', message)
  }
}

/** 400 — the body is not readable as the endpoint expects. */
export class MalformedRequestError extends AppError {
  constructor(message: string) {
    super('malformed', message)
  }
}

/** 400 — e.g. "The archived source file is unavailable." */
export class OperationalError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('operational', message, options)
  }
}

export class UnauthorizedError extends AppError {
  constructor(message: string) {
    super('unauthorized', message)
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super('forbidden', message)
  }
}

/** 404 with a complete message, e.g. `new NotFoundError('Tag not found.')`. */
export class NotFoundError extends AppError {
  constructor(message: string) {
    super('not_found', message)
  }
}

/** 405: `methods` are the ones the endpoint serves (named in the message), `allowed` the `Allow` header. */
export class MethodNotAllowedError extends AppError {
  constructor(
    methods: readonly string[],
    readonly allowed: readonly string[] = methods,
  ) {
    super('method', `${joinMethods(methods)} required.`)
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(readonly limitBytes: number) {
    super('too_large', `Request body is too large (limit ${formatBytes(limitBytes)}).`)
  }
}

/**
 * 429 with `Retry-After`. `details` are extra body fields next to `error` (HTTP ingest's `rate_limited`,
 * `retry_after`, reference §4.3), `headers` extra headers (Sentry's `X-Sentry-Rate-Limits`).
 */
/** 415 — e.g. a `Content-Encoding` the runtime cannot decode. */
export class UnsupportedMediaError extends AppError {
  constructor(message: string) {
    super('unsupported', message)
  }
}

export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    readonly details: { readonly body?: Readonly<Record<string, unknown>>; readonly headers?: Readonly<Record<string, string>> } = {},
  ) {
    super('rate_limited', message)
  }
}

/** "GET or POST", "GET, POST, PATCH, PUT, or DELETE" — the reference's 405 wording (reference §0). */
function joinMethods(methods: readonly string[]): string {
  if (methods.length <= 1) return methods.join('')
  if (methods.length === 2) return `${methods[0]} or ${methods[1]}`
  return `${methods.slice(0, -1).join(', ')}, or ${methods[methods.length - 1]}`
}

function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`
  return `${bytes} bytes`
}
