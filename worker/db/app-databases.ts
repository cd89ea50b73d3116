import type { DatabaseSettings } from '../../drivers/index.ts'

/**
 * `APP_DATABASES`: applications that live in their own database rather than in a namespace of the default
 * one (design.md §2). A JSON object keyed by application id; each value is `{driver?, url, token?, endpoint?}`.
 */
export type AppDatabaseMap = ReadonlyMap<string, DatabaseSettings>

export interface ParsedAppDatabases {
  readonly databases: AppDatabaseMap
  readonly warning: string | null
}

const cache = new Map<string, ParsedAppDatabases>()

export function parseAppDatabases(raw: string | undefined): ParsedAppDatabases {
  const text = raw?.trim() ?? ''
  const cached = cache.get(text)
  if (cached) return cached
  const parsed = parse(text)
  cache.set(text, parsed)
  return parsed
}

function parse(text: string): ParsedAppDatabases {
  if (text === '') return { databases: new Map(), warning: null }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { databases: new Map(), warning: 'APP_DATABASES is not a JSON object and was ignored.' }
  }
  const databases = new Map<string, DatabaseSettings>()
  const invalid: string[] = []
  for (const [appId, entry] of Object.entries(value as Record<string, unknown>)) {
    const settings = entry as Record<string, unknown> | null
    if (!settings || typeof settings !== 'object' || typeof settings.url !== 'string' || settings.url.trim() === '') {
      invalid.push(appId)
      continue
    }
    const text = (key: string) => (typeof settings[key] === 'string' ? (settings[key] as string) : undefined)
    databases.set(appId, { driver: text('driver'), url: text('url'), token: text('token'), endpoint: text('endpoint') })
  }
  const warning = invalid.length
    ? `APP_DATABASES entries need a "url"; ignored: ${invalid.join(', ')}.`
    : null
  return { databases, warning }
}
