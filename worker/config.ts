import type { Env } from './env.ts'
import { PAGINATION } from '../shared/constants.ts'
import type { AssignableUser } from '../shared/api.ts'
import { integerSetting, readSetting, type ConfigSection } from './config/config-section.ts'
import { DASHBOARD_SECTION, DATABASE_SECTION, INGESTION_SECTION, LIMITS_SECTION, RETENTION_SECTION } from './config/sections.ts'
import { parseAppDatabases } from './db/app-databases.ts'
import { CONNECTORS_SECTION } from './connectors/connectors-config.ts'

export type { AssignableUser }


/** Configuration after parsing and validation; problems become `warnings` (shown by `health`), never crashes. */
export interface ServiceConfig {
  /** The API token, from `SERVICE_TOKEN` or config `auth.token`; null means the API is open. */
  readonly token: string | null
  /** The canonical base address (`SERVICE_URL`), without a trailing slash; null when unset. */
  readonly serviceUrl: string | null
  readonly hasSecret: boolean
  /**
   * `TRACKER_API_KEY` / `TRACKER_WEBHOOK_SECRET` (secrets): the issue tracker's credentials from the environment,
   * which override and lock the stored ones (reference §4.5); null when unset.
   */
  readonly trackerEnv: { readonly apiKey: string | null; readonly webhookSecret: string | null }
  readonly pagination: { readonly defaultLimit: number; readonly maxLimit: number }
  readonly assignableUsers: readonly AssignableUser[]
  /** Largest JSON request body accepted (config `limits.max_body_bytes`). */
  readonly maxBodyBytes: number
  /** `ingestion.*` (worker/config/sections.ts). */
  readonly ingestion: ReturnType<typeof INGESTION_SECTION.read>
  /** `retention.*` (worker/config/sections.ts). */
  readonly retention: ReturnType<typeof RETENTION_SECTION.read>
  /** Whether API responses carry `Server-Timing: db;…` (round trips and time spent in the database). */
  readonly serverTiming: boolean
  /**
   * Deadline of every database call (config `database.timeout_ms`): past it the call fails, the request
   * answers 503 and `health` reports `timeout` (issue 10: a stalled database must not hang requests).
   */
  readonly databaseTimeoutMs: number
  /** The value of a section registered with `parseConfig` (a plugin's own settings). */
  section<T>(section: ConfigSection<T>): T
  readonly warnings: readonly string[]
}

/** The sections every installation has; plugins register theirs through `parseConfig`'s `sections`. */
const CORE_SECTIONS: readonly ConfigSection<unknown>[] = [LIMITS_SECTION, DATABASE_SECTION, INGESTION_SECTION, RETENTION_SECTION, CONNECTORS_SECTION, DASHBOARD_SECTION]
/** Keys outside any section. */
const TOP_LEVEL_KEYS = ['auth.token', 'pagination.default_limit', 'pagination.max_limit', 'assignable_users', 'server_timing']

/** Parses the configuration once per `env` object (it is the same object for every request of an isolate). */
export function readConfig(env: Env, sections: readonly ConfigSection<unknown>[] = NO_SECTIONS): ServiceConfig {
  let byCatalog = cache.get(env)
  if (!byCatalog) cache.set(env, (byCatalog = new WeakMap()))
  let config = byCatalog.get(sections)
  if (!config) byCatalog.set(sections, (config = parseConfig(env, sections)))
  return config
}

/** Parsed configurations per `env` object and per plugin-section list (the same objects for an isolate's life). */
const cache = new WeakMap<object, WeakMap<readonly ConfigSection<unknown>[], ServiceConfig>>()
const NO_SECTIONS: readonly ConfigSection<unknown>[] = []

/**
 * `SERVICE_CONFIG` (JSON, nested or dotted keys) and the environment, parsed once into typed values: the core
 * sections, `sections` registered by plugins, and the keys outside any section. Every bad value is a warning
 * (`health` shows them) and its default is used; unknown keys are warnings too.
 */
export function parseConfig(env: Env, sections: readonly ConfigSection<unknown>[] = []): ServiceConfig {
  const warnings: string[] = []
  const settings = parseSettings(env.SERVICE_CONFIG, warnings)
  const get = (key: string) => lookup(settings, key)
  const all = [...CORE_SECTIONS, ...sections]
  const known = new Set([...TOP_LEVEL_KEYS, ...all.flatMap((section) => section.keys)])
  for (const key of flattenKeys(settings, known)) {
    if (!known.has(key)) warnings.push(`SERVICE_CONFIG key "${key}" is not recognised and was ignored.`)
  }
  const values = new Map<ConfigSection<unknown>, unknown>(all.map((section) => [section, section.read(get, warnings)]))
  const valueOf = <T,>(section: ConfigSection<T>): T => (values.has(section) ? (values.get(section) as T) : section.read(get, []))

  const configToken = get('auth.token')
  const token = env.SERVICE_TOKEN?.trim() || (typeof configToken === 'string' ? configToken.trim() : '') || null
  if (!token) warnings.push('No API token is set (SERVICE_TOKEN or auth.token): the API is open to anyone who can reach it.')
  const hasSecret = Boolean(env.SERVICE_SECRET?.trim())
  if (!hasSecret) warnings.push('SERVICE_SECRET is not set: integrations that keep a secret (ingest keys, alert channels, tracker tokens) cannot be set up.')

  const maxLimit = readSetting(get, 'pagination.max_limit', integerSetting(1, 1000, PAGINATION.maxLimit), warnings)
  const defaultLimit = readSetting(get, 'pagination.default_limit', integerSetting(1, maxLimit, Math.min(PAGINATION.defaultLimit, maxLimit)), warnings)
  return {
    token,
    serviceUrl: parseServiceUrl(env.SERVICE_URL, warnings),
    hasSecret,
    trackerEnv: { apiKey: env.TRACKER_API_KEY?.trim() || null, webhookSecret: env.TRACKER_WEBHOOK_SECRET?.trim() || null },
    pagination: { defaultLimit, maxLimit },
    assignableUsers: parseAssignableUsers(get('assignable_users'), warnings),
    maxBodyBytes: valueOf(LIMITS_SECTION).max_body_bytes,
    serverTiming: get('server_timing') !== false,
    databaseTimeoutMs: valueOf(DATABASE_SECTION).timeout_ms,
    ingestion: valueOf(INGESTION_SECTION),
    retention: valueOf(RETENTION_SECTION),
    section: valueOf,
    warnings: [...warnings, ...appDatabasesWarnings(env)],
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

/** Dotted names of the leaves, treating known keys (`assignable_users`, an array) as leaves. */
function flattenKeys(settings: Readonly<Record<string, unknown>>, known: ReadonlySet<string>, prefix = ''): string[] {
  return Object.entries(settings).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key
    if (value && typeof value === 'object' && !Array.isArray(value) && !known.has(name)) {
      return flattenKeys(value as Record<string, unknown>, known, name)
    }
    return [name]
  })
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

/** `APP_DATABASES` is parsed where databases are opened; its problems are configuration warnings like the rest. */
function appDatabasesWarnings(env: Env): string[] {
  const warning = parseAppDatabases(env.APP_DATABASES).warning
  return warning ? [warning] : []
}
