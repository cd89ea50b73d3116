import { SEVERITIES, type Severity } from '../../../shared/constants.ts'
import { INGEST_MESSAGES, MAX_INGEST_BATCH } from '../../../shared/schemas/ingest.ts'
import { InvalidInputError } from '../../errors.ts'
import { toTimestamp } from '../../time.ts'
import type { IngestEvent } from './ingest-event.ts'

/** Field limits of reference §4.3 "Event fields"; longer values are cut, not refused. */
export const INGEST_LIMITS = {
  message: 120_000,
  stack: 120_000,
  release: 120,
  channel: 120,
  serverName: 200,
  fingerprint: 200,
  tags: 20,
  tag: 80,
  breadcrumbs: 50,
  environment: 100,
  exceptionClass: 255,
  module: 100,
} as const

const KNOWN_SEVERITIES: ReadonlySet<string> = new Set(SEVERITIES)
const SEVERITY_ALIASES: Readonly<Record<string, Severity>> = { WARN: 'WARNING', ERR: 'ERROR', FATAL: 'CRITICAL', CRIT: 'CRITICAL', EMERG: 'EMERGENCY', TRACE: 'DEBUG' }

/**
 * The events of a `POST ?api=ingest` body (reference §4.3 "Payload"): `{"events": […]}`, a bare array, or one
 * event object. The batch is all or nothing — one event without a message refuses the whole batch (422), as
 * does a field of the wrong type, named with the event's position.
 */
export function readIngestPayload(body: unknown, now: Date): IngestEvent[] {
  const list =
    Array.isArray(body) ? body
    : isObject(body) && 'events' in body ? body.events
    : isObject(body) && Object.keys(body).length > 0 ? [body]
    : []
  if (!Array.isArray(list)) throw new InvalidInputError('"events" must be an array of event objects.')
  if (list.length === 0) throw new InvalidInputError(INGEST_MESSAGES.noEvents)
  if (list.length > MAX_INGEST_BATCH) throw new InvalidInputError(INGEST_MESSAGES.tooManyEvents)
  return list.map((event, index) => readEvent(event, index, now))
}

function readEvent(raw: unknown, index: number, now: Date): IngestEvent {
  const where = `Event ${index + 1}`
  if (!isObject(raw)) throw new InvalidInputError(`${where} must be a JSON object.`)
  const message = text(raw.message) ?? text(raw.title)
  if (message === null || message.trim() === '') throw new InvalidInputError(INGEST_MESSAGES.messageRequired)
  const object = (field: string): Record<string, unknown> | null => {
    const value = raw[field]
    if (value === undefined || value === null) return null
    if (!isObject(value)) throw new InvalidInputError(`${where}: "${field}" must be an object.`)
    return value
  }
  const string = (field: string, limit: number): string | null => {
    const value = raw[field]
    if (value === undefined || value === null) return null
    if (typeof value !== 'string' && typeof value !== 'number') throw new InvalidInputError(`${where}: "${field}" must be a string.`)
    const cut = String(value).trim().slice(0, limit)
    return cut === '' ? null : cut
  }
  const context: Record<string, unknown> = { ...object('context') }
  for (const field of ['request', 'user'] as const) {
    const value = object(field)
    if (value !== null) context[field] = value
  }
  if (raw.breadcrumbs !== undefined && raw.breadcrumbs !== null) {
    if (!Array.isArray(raw.breadcrumbs)) throw new InvalidInputError(`${where}: "breadcrumbs" must be an array.`)
    context.breadcrumbs = raw.breadcrumbs.slice(-INGEST_LIMITS.breadcrumbs)
  }
  const release = string('release', INGEST_LIMITS.release)
  for (const [field, value] of [['server_name', string('server_name', INGEST_LIMITS.serverName)], ['runtime', string('runtime', INGEST_LIMITS.serverName)], ['release', release]] as const) {
    if (value !== null) context[field] = value
  }
  return {
    message: message.slice(0, INGEST_LIMITS.message),
    severity: severityOf(raw.severity ?? raw.level),
    environment: string('environment', INGEST_LIMITS.environment) ?? 'production',
    channel: sanitizeChannel(typeof raw.channel === 'string' ? raw.channel : '', 'app'),
    exceptionClass: string('exception_class', INGEST_LIMITS.exceptionClass) ?? string('exception', INGEST_LIMITS.exceptionClass),
    stack: stackOf(raw.stack, where),
    culprit: null,
    occurredAt: occurredAt(raw.occurred_at, now),
    release,
    context: Object.keys(context).length > 0 ? context : null,
    fingerprint: string('fingerprint', INGEST_LIMITS.fingerprint),
    tags: tagsOf(raw.tags, where),
    module: string('module', INGEST_LIMITS.module),
    eventId: null,
  }
}

/** Upper-cased, with the usual aliases; an unknown or missing level is `ERROR` (reference §4.3). */
export function severityOf(value: unknown): Severity {
  if (typeof value !== 'string') return 'ERROR'
  const upper = value.trim().toUpperCase()
  if (KNOWN_SEVERITIES.has(upper)) return upper as Severity
  return SEVERITY_ALIASES[upper] ?? 'ERROR'
}

/**
 * Reference §4.3's channel rule: the base name, runs of characters outside `[A-Za-z0-9_.-]` become `-`,
 * leading and trailing `.`/`-` trimmed, at most 120 characters; empty → `fallback`.
 */
export function sanitizeChannel(raw: string, fallback: string): string {
  const base = raw.split(/[\\/]/).pop() ?? ''
  const clean = base.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[.-]+|[.-]+$/g, '').slice(0, INGEST_LIMITS.channel).replace(/[.-]+$/, '')
  return clean === '' ? fallback : clean
}

/**
 * A time the client sent: ISO 8601 / RFC 2822 strings (without a zone read as UTC, like the log formats),
 * or Unix seconds; anything else — or a time that cannot be read — is the time of receipt (reference §4.3:
 * non-strings become now).
 */
export function occurredAt(value: unknown, now: Date): string {
  let date: Date | null = null
  if (typeof value === 'number' && Number.isFinite(value)) date = new Date(value * 1000)
  else if (typeof value === 'string' && value.trim() !== '') {
    const trimmed = value.trim()
    const zoned = /(Z|[+-]\d{2}:?\d{2}|\b(?:UTC|GMT))$/i.test(trimmed) || !/^\d{4}-\d{2}-\d{2}/.test(trimmed)
    date = new Date(zoned ? trimmed : `${trimmed.replace(' ', 'T')}Z`)
  }
  if (date === null || Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1970 || date.getUTCFullYear() > 9999) return toTimestamp(now)
  return toTimestamp(date)
}

function stackOf(value: unknown, where: string): string | null {
  if (value === undefined || value === null) return null
  const lines = Array.isArray(value) && value.every((line) => typeof line === 'string') ? value.join('\n') : value
  if (typeof lines !== 'string') throw new InvalidInputError(`${where}: "stack" must be a string or an array of strings.`)
  const trimmed = lines.trim()
  return trimmed === '' ? null : trimmed.slice(0, INGEST_LIMITS.stack)
}

/** At most 20 names of at most 80 characters, de-duplicated case-insensitively, first spelling kept. */
function tagsOf(value: unknown, where: string): string[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value) || !value.every((tag) => typeof tag === 'string')) throw new InvalidInputError(`${where}: "tags" must be an array of strings.`)
  const seen = new Set<string>()
  const tags: string[] = []
  for (const raw of value) {
    const name = raw.trim().slice(0, INGEST_LIMITS.tag).trim()
    const key = name.toLowerCase()
    if (name === '' || seen.has(key)) continue
    seen.add(key)
    tags.push(name)
    if (tags.length === INGEST_LIMITS.tags) break
  }
  return tags
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
