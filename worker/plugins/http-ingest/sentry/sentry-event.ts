import type { Severity } from '../../../../shared/constants.ts'
import { InvalidInputError } from '../../../errors.ts'
import type { IngestEvent } from '../ingest-event.ts'
import { INGEST_LIMITS, occurredAt, sanitizeChannel } from '../ingest-payload.ts'

/** Sentry levels (https://develop.sentry.dev/sdk/data-model/event-payloads/#required-attributes) → severities. */
const LEVELS: Readonly<Record<string, Severity>> = { fatal: 'CRITICAL', error: 'ERROR', warning: 'WARNING', info: 'INFO', log: 'INFO', debug: 'DEBUG' }
/** Request headers never stored: credentials. */
const SECRET_HEADERS = /^(cookie|authorization|proxy-authorization|x-sentry-auth|x-loupe-ingest-key|x-service-token|set-cookie)$/i
const MAX_TEXT = 8_000
const MAX_DATA_JSON = 10_000
const UNLABELED = '<unlabeled event>'

type Json = Record<string, unknown>

/**
 * A Sentry event (store body or envelope `event` item, as the SDKs send it) as Loupe's ingest event:
 * - the main exception is the last of `exception.values` (Sentry lists a chain innermost cause first, the
 *   exception raised last); its `type` is the class and its `value` the message — else `logentry`/`message`;
 * - frames come oldest first, so the stack is written innermost first in Node's `at fn (file:line:col)` form,
 *   each earlier exception of the chain after a `Caused by: Type: value` line;
 * - the culprit is the innermost `in_app` frame, written as in the stack, so grouping matches a log file's
 *   (class, normalised message, top application frame); no in-app frame leaves it to the analyser;
 * - `fingerprint` `["{{ default }}"]` (or none) groups by default; other parts, with `{{ default }}` standing
 *   for class and culprit, become the custom grouping key;
 * - Sentry's key/value `tags` stay in the context (Loupe tags are labels, created only by HTTP ingest's `tags`);
 * - everything else the inspector shows goes into the context: user, request (credentials removed), tags,
 *   contexts, breadcrumbs (last 50), release, server_name, platform, logger, sdk, extra, and the culprit
 *   frame's source lines.
 * Total: any JSON object maps; only a non-object is refused.
 */
export function sentryToIngestEvent(raw: unknown, now: Date): IngestEvent {
  if (!isObject(raw)) throw new InvalidInputError('A Sentry event must be a JSON object.')
  const exceptions = exceptionValues(raw.exception)
  const main = exceptions.at(-1) ?? null
  const frames = main ? framesOf(main) : framesOf({ stacktrace: raw.stacktrace })
  const culpritFrame = [...frames].reverse().find((frame) => frame.in_app === true) ?? null
  const exceptionClass = main ? text(main.type, INGEST_LIMITS.exceptionClass) : null
  const message = (main ? text(main.value, INGEST_LIMITS.message) : null) ?? messageOf(raw) ?? exceptionClass ?? UNLABELED
  const stackLines = frames.length > 0 ? [stackOf(frames)] : []
  for (const cause of exceptions.slice(0, -1).reverse()) {
    stackLines.push(`Caused by: ${[text(cause.type, 255), text(cause.value, MAX_TEXT)].filter(Boolean).join(': ')}`)
    const causeFrames = framesOf(cause)
    if (causeFrames.length > 0) stackLines.push(stackOf(causeFrames))
  }
  const stack = stackLines.join('\n').slice(0, INGEST_LIMITS.stack)
  const release = text(raw.release, INGEST_LIMITS.release)
  const culprit = culpritFrame ? frameLocation(culpritFrame) : null
  return {
    message,
    severity: LEVELS[String(raw.level ?? '').toLowerCase()] ?? (main ? 'ERROR' : 'INFO'),
    environment: text(raw.environment, INGEST_LIMITS.environment) ?? 'production',
    channel: typeof raw.logger === 'string' && raw.logger.trim() !== '' ? sanitizeChannel(raw.logger, 'sentry') : 'sentry',
    exceptionClass,
    stack: stack === '' ? null : stack,
    culprit,
    occurredAt: occurredAt(typeof raw.timestamp === 'number' || typeof raw.timestamp === 'string' ? raw.timestamp : null, now),
    release,
    context: contextOf(raw, release, culpritFrame),
    fingerprint: fingerprintOf(raw.fingerprint, exceptionClass, culprit),
    tags: [],
    module: null,
    eventId: eventIdOf(raw.event_id),
  }
}

/** `event_id`: 32 hex digits, lower-cased; a dashed UUID is accepted. Anything else: none. */
export function eventIdOf(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const id = value.replaceAll('-', '').toLowerCase()
  return /^[0-9a-f]{32}$/.test(id) ? id : null
}

interface Frame {
  readonly filename?: unknown
  readonly abs_path?: unknown
  readonly function?: unknown
  readonly lineno?: unknown
  readonly colno?: unknown
  readonly in_app?: unknown
  readonly pre_context?: unknown
  readonly context_line?: unknown
  readonly post_context?: unknown
}

function exceptionValues(exception: unknown): Json[] {
  const values = Array.isArray(exception) ? exception : isObject(exception) ? exception.values : null
  return Array.isArray(values) ? values.filter(isObject) : []
}

function framesOf(exception: Json): Frame[] {
  const stacktrace = exception.stacktrace
  const frames = isObject(stacktrace) ? stacktrace.frames : null
  return Array.isArray(frames) ? frames.filter(isObject) : []
}

/** `file:line:col` (or `file:line`), as the analyser reads a Node frame (analyze-event.ts FRAME). */
function frameLocation(frame: Frame): string {
  const file = text(frame.filename, 500) ?? text(frame.abs_path, 500) ?? '<unknown>'
  const line = integer(frame.lineno)
  const column = integer(frame.colno)
  return line === null ? file : column === null ? `${file}:${line}` : `${file}:${line}:${column}`
}

function stackOf(frames: readonly Frame[]): string {
  return [...frames].reverse().map((frame) => `    at ${text(frame.function, 300) ?? '<anonymous>'} (${frameLocation(frame)})`).join('\n')
}

function messageOf(raw: Json): string | null {
  const logentry = raw.logentry
  if (isObject(logentry)) return text(logentry.formatted, INGEST_LIMITS.message) ?? text(logentry.message, INGEST_LIMITS.message)
  const message = raw.message
  if (isObject(message)) return text(message.formatted, INGEST_LIMITS.message) ?? text(message.message, INGEST_LIMITS.message)
  return text(message, INGEST_LIMITS.message)
}

function fingerprintOf(value: unknown, exceptionClass: string | null, culprit: string | null): string | null {
  if (!Array.isArray(value) || value.length === 0) return null
  const parts = value.map((part) => (part === '{{ default }}' || part === '{{default}}' ? `default:${exceptionClass ?? ''}@${culprit ?? ''}` : String(part)))
  if (parts.length === 1 && parts[0]!.startsWith('default:')) return null
  return parts.join('\u001f').slice(0, INGEST_LIMITS.fingerprint)
}

function contextOf(raw: Json, release: string | null, culprit: Frame | null): Json | null {
  const context: Json = {}
  const put = (key: string, value: unknown) => {
    if (value !== undefined && value !== null && !(isObject(value) && Object.keys(value).length === 0)) context[key] = value
  }
  put('event_id', eventIdOf(raw.event_id))
  put('platform', text(raw.platform, 50))
  put('logger', text(raw.logger, 200))
  put('server_name', text(raw.server_name, INGEST_LIMITS.serverName))
  put('release', release)
  put('dist', text(raw.dist, 64))
  put('user', isObject(raw.user) ? capped(raw.user) : null)
  put('request', isObject(raw.request) ? requestOf(raw.request) : null)
  put('tags', tagsOf(raw.tags))
  put('contexts', isObject(raw.contexts) ? capped(raw.contexts) : null)
  const breadcrumbs = Array.isArray(raw.breadcrumbs) ? raw.breadcrumbs : isObject(raw.breadcrumbs) && Array.isArray(raw.breadcrumbs.values) ? raw.breadcrumbs.values : null
  put('breadcrumbs', breadcrumbs ? capped(breadcrumbs.slice(-INGEST_LIMITS.breadcrumbs)) : null)
  put('extra', isObject(raw.extra) ? capped(raw.extra) : null)
  put('sdk', isObject(raw.sdk) ? { name: text(raw.sdk.name, 100), version: text(raw.sdk.version, 50) } : null)
  if (culprit && typeof culprit.context_line === 'string') {
    put('culprit_source', { pre: lines(culprit.pre_context), line: culprit.context_line.slice(0, 500), post: lines(culprit.post_context), at: frameLocation(culprit) })
  }
  return Object.keys(context).length > 0 ? context : null
}

function requestOf(request: Json): Json {
  const headers = isObject(request.headers)
    ? Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, SECRET_HEADERS.test(name) ? '[removed]' : typeof value === 'string' ? value.slice(0, 1000) : value]))
    : undefined
  const data = request.data === undefined ? undefined : JSON.stringify(request.data)
  return {
    ...(typeof request.url === 'string' ? { url: request.url.slice(0, 2000) } : {}),
    ...(typeof request.method === 'string' ? { method: request.method.slice(0, 20) } : {}),
    ...(headers ? { headers } : {}),
    ...(request.query_string !== undefined ? { query_string: capped(request.query_string) } : {}),
    ...(data !== undefined ? { data: data.length <= MAX_DATA_JSON ? request.data : `${data.slice(0, MAX_DATA_JSON)}…` } : {}),
  }
}

/** Sentry tags are an object or an array of `[key, value]` pairs. */
function tagsOf(tags: unknown): Json | null {
  if (isObject(tags)) return capped(tags)
  if (Array.isArray(tags)) {
    const pairs = tags.filter((pair): pair is [unknown, unknown] => Array.isArray(pair) && pair.length === 2)
    return Object.fromEntries(pairs.map(([key, value]) => [String(key).slice(0, 200), String(value).slice(0, 200)]))
  }
  return null
}

function lines(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((line): line is string => typeof line === 'string').slice(-5).map((line) => line.slice(0, 500)) : []
}

/** Any JSON with its strings cut at MAX_TEXT characters (the context is shown, not searched). */
function capped<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' && item.length > MAX_TEXT ? `${item.slice(0, MAX_TEXT)}…` : item))) as T
}

function text(value: unknown, limit: number): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null
  const trimmed = String(value).trim()
  return trimmed === '' ? null : trimmed.slice(0, limit)
}

function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
