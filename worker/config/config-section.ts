import { boolean, integer, nullable, refine, string, validate, type Struct } from 'superstruct'

/**
 * One `SERVICE_CONFIG` value: its schema, the value used when it is absent or invalid, and the rule a warning
 * states ("an integer from 100 to 300000").
 */
export interface Setting<T> {
  readonly struct: Struct<T, unknown>
  readonly fallback: T
  readonly rule: string
}

/** An integer within [min, max]. */
export function integerSetting(min: number, max: number, fallback: number): Setting<number> {
  return { struct: refine(integer(), 'range', (value) => value >= min && value <= max), fallback, rule: `an integer from ${min} to ${max}` }
}

/** true or false. */
export function booleanSetting(fallback: boolean): Setting<boolean> {
  return { struct: boolean(), fallback, rule: 'true or false' }
}

/** An absolute http(s) URL, or null when unset. */
export function urlSetting(): Setting<string | null> {
  const url = refine(nullable(string()), 'url', (value) => {
    if (value === null) return true
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol)
    } catch {
      return false
    }
  })
  return { struct: url, fallback: null, rule: 'an absolute http(s) URL' }
}

/**
 * A named group of settings — `ingestion`, `retention`, or a plugin's own — read from `SERVICE_CONFIG` under
 * `<name>.<key>` (nested or dotted). Each invalid value becomes a health warning naming the key, the rule and
 * the value used instead; nothing is silently replaced.
 */
export interface ConfigSection<T> {
  readonly name: string
  /** Dotted keys the section understands (unknown keys draw a warning). */
  readonly keys: readonly string[]
  read(lookup: (key: string) => unknown, warnings: string[]): T
}

type Values<F> = { readonly [K in keyof F]: F[K] extends Setting<infer T> ? T : never }
/** Any setting: superstruct's `Struct` is invariant in its type, so a field list is typed by inference. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySetting = Setting<any>

export function defineSection<F extends Record<string, AnySetting>>(name: string, fields: F): ConfigSection<Values<F>> {
  const names = Object.keys(fields)
  return {
    name,
    keys: names.map((field) => `${name}.${field}`),
    read(lookup, warnings) {
      const values: Record<string, unknown> = {}
      for (const field of names) values[field] = readSetting(lookup, `${name}.${field}`, fields[field]!, warnings)
      return values as Values<F>
    },
  }
}

/** One setting's value: the configured one when valid, else the fallback with a warning. */
export function readSetting<T>(lookup: (key: string) => unknown, key: string, setting: Setting<T>, warnings: string[]): T {
  const value = lookup(key)
  if (value === undefined) return setting.fallback
  const [error, valid] = validate(value, setting.struct)
  if (!error) return valid
  warnings.push(`SERVICE_CONFIG ${key} must be ${setting.rule}; using ${JSON.stringify(setting.fallback)}.`)
  return setting.fallback
}
