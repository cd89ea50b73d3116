import type { Env } from './env.ts'
import { PAGINATION } from '../shared/constants.ts'
import type { AssignableUser } from '../shared/api.ts'

export type { AssignableUser }


/** Configuration after parsing and validation; problems become `warnings` (shown by `health`), never crashes. */
export interface ServiceConfig {
  /** The API token, from `SERVICE_TOKEN` or config `auth.token`; null means the API is open. */
  readonly token: string | null
  /** The canonical base address (`SERVICE_URL`), without a trailing slash; null when unset. */
  readonly serviceUrl: string | null
  readonly hasSecret: boolean
  readonly pagination: { readonly defaultLimit: number; readonly maxLimit: number }
  readonly assignableUsers: readonly AssignableUser[]
  /** Largest JSON request body accepted (config `limits.max_body_bytes`). */
  readonly maxBodyBytes: number
  /** Whether API responses carry `Server-Timing: db;…` (round trips and time spent in the database). */
  readonly serverTiming: boolean
  /**
   * Deadline of every database call (config `database.timeout_ms`): past it the call fails, the request
   * answers 503 and `health` reports `timeout` (issue 10: a stalled database must not hang requests).
   */
  readonly databaseTimeoutMs: number
  /** The parsed `SERVICE_CONFIG` object, for keys read by later features and plugins. */
  readonly settings: Readonly<Record<string, unknown>>
  readonly warnings: readonly string[]
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024
/** Ten seconds: well above a healthy call (an 8000-event import batch takes about a second on PlanetScale). */
export const DEFAULT_DATABASE_TIMEOUT_MS = 10_000

/** Keys `SERVICE_CONFIG` understands; anything else draws a warning (a typo should not go unnoticed). */
const KNOWN_KEYS = new Set([
  'auth.token',
  'pagination.default_limit',
  'pagination.max_limit',
  'assignable_users',
  'limits.max_body_bytes',
  'server_timing',
  'database.timeout_ms',
  'ingestion.capture_limit',
  'ingestion.message_limit',
  'ingestion.import_batch_events',
  'ingestion.request_budget_bytes',
  'ingestion.job_budget_bytes',
  'ingestion.max_file_attempts',
  'retention.occurrences_max_age_days',
  'retention.max_occurrences_per_group',
  'retention.processed_max_age_days',
  'retention.processed_max_files',
])

const cache = new WeakMap<object, ServiceConfig>()

/** Parses the configuration once per `env` object (it is the same object for every request of an isolate). */
export function readConfig(env: Env): ServiceConfig {
  const cached = cache.get(env)
  if (cached) return cached
  const config = parseConfig(env)
  cache.set(env, config)
  return config
}

export function parseConfig(env: Env): ServiceConfig {
  const warnings: string[] = []
  const settings = parseSettings(env.SERVICE_CONFIG, warnings)
  const get = (key: string) => lookup(settings, key)
  for (const key of flattenKeys(settings)) {
    if (!KNOWN_KEYS.has(key)) warnings.push(`SERVICE_CONFIG key "${key}" is not recognised and was ignored.`)
  }

  const configToken = get('auth.token')
  const token = env.SERVICE_TOKEN?.trim() || (typeof configToken === 'string' ? configToken.trim() : '') || null
  if (!token) warnings.push('No API token is set (SERVICE_TOKEN or auth.token): the API is open to anyone who can reach it.')
  const hasSecret = Boolean(env.SERVICE_SECRET?.trim())
  if (!hasSecret) warnings.push('SERVICE_SECRET is not set: secrets stored by integrations would be kept unencrypted.')

  const maxLimit = integerSetting(get('pagination.max_limit'), 'pagination.max_limit', PAGINATION.maxLimit, 1, 1000, warnings)
  const defaultLimit = integerSetting(get('pagination.default_limit'), 'pagination.default_limit', Math.min(PAGINATION.defaultLimit, maxLimit), 1, maxLimit, warnings)
  return {
    token,
    serviceUrl: parseServiceUrl(env.SERVICE_URL, warnings),
    hasSecret,
    pagination: { defaultLimit, maxLimit },
    assignableUsers: parseAssignableUsers(get('assignable_users'), warnings),
    maxBodyBytes: integerSetting(get('limits.max_body_bytes'), 'limits.max_body_bytes', DEFAULT_MAX_BODY_BYTES, 1024, 100 * 1024 * 1024, warnings),
    serverTiming: get('server_timing') !== false,
    databaseTimeoutMs: integerSetting(get('database.timeout_ms'), 'database.timeout_ms', DEFAULT_DATABASE_TIMEOUT_MS, 100, 300_000, warnings),
    settings,
    warnings,
  }
}

/** Reads a dotted key from either a flat (`{"auth.token": …}`) or a nested (`{"auth": {"token": …}}`) object. */
export function lookup(settings: Readonly<Record<string, unknown>>, key: string): unknown {
  if (key in settings) return settings[key]
  let node: unknown = settings
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return node
}

function parseSettings(raw: string | undefined, warnings: string[]): Record<string, unknown> {
  if (!raw?.trim()) return {}
  try {
    const parsed: unknown = JSON.parse(raw)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch {
    // fall through to the warning
  }
  warnings.push('SERVICE_CONFIG is not a JSON object and was ignored.')
  return {}
}

/** Dotted names of the leaves, treating `assignable_users` (an array) as a leaf. */
function flattenKeys(settings: Readonly<Record<string, unknown>>, prefix = ''): string[] {
  return Object.entries(settings).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key
    if (value && typeof value === 'object' && !Array.isArray(value) && !KNOWN_KEYS.has(name)) {
      return flattenKeys(value as Record<string, unknown>, name)
    }
    return [name]
  })
}

function integerSetting(value: unknown, key: string, fallback: number, min: number, max: number, warnings: string[]): number {
  if (value === undefined) return fallback
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value
  warnings.push(`SERVICE_CONFIG ${key} must be an integer from ${min} to ${max}; using ${fallback}.`)
  return fallback
}

function parseServiceUrl(raw: string | undefined, warnings: string[]): string | null {
  const value = raw?.trim()
  if (!value) return null
  try {
    const url = new URL(value)
    if (url.protocol === 'http:' || url.protocol === 'https:') return value.replace(/\/+$/, '')
  } catch {
    // fall through to the warning
  }
  warnings.push('SERVICE_URL is not an http(s) URL and was ignored.')
  return null
}

function parseAssignableUsers(value: unknown, warnings: string[]): AssignableUser[] {
  if (value === undefined) return []
  const users = Array.isArray(value)
    ? value.flatMap((entry): AssignableUser[] => {
        if (!entry || typeof entry !== 'object') return []
        const { id, label } = entry as Record<string, unknown>
        const userId = typeof id === 'number' ? String(id) : id
        if (typeof userId !== 'string' || !userId.trim() || typeof label !== 'string' || !label.trim()) return []
        return [{ id: userId.trim(), label: label.trim() }]
      })
    : []
  if (!Array.isArray(value) || users.length !== value.length) {
    warnings.push('SERVICE_CONFIG assignable_users must be a list of {"id", "label"} objects; invalid entries were ignored.')
  }
  return users
}
