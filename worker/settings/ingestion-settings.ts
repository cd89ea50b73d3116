import type { IngestionSettings } from '../../shared/api.ts'

export type { IngestionSettings }
import { DEFAULT_INGESTED_SEVERITIES, SEVERITIES, type Severity } from '../../shared/constants.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { InvalidInputError } from '../errors.ts'
import { appSettings, settingValue } from './app-settings.ts'

/** Where the allow-list is stored (reference §1.2 `app_settings` keys). */
export const SEVERITIES_KEY = 'ingestion.severities'

/**
 * Bumped whenever a change to parsing, analysis or grouping makes earlier readings of a file wrong; part of
 * every file's import version, so a reindex (or a re-upload) reads such files again. The reference is at 11;
 * 12: format detection over the whole sample, Laravel header variants, nginx/Apache error logs, unescaped
 * stacks, and the grouping of ids, hex, tokens and durations.
 */
export const PARSER_VERSION = 12


/** The allow-list as stored: known levels in LEVELS order; anything unusable falls back to the defaults. */
export function parseSeverities(stored: string | null): Severity[] {
  if (stored === null) return [...DEFAULT_INGESTED_SEVERITIES]
  let decoded: unknown
  try {
    decoded = JSON.parse(stored)
  } catch {
    decoded = null
  }
  if (!Array.isArray(decoded)) return [...DEFAULT_INGESTED_SEVERITIES]
  const wanted = new Set(decoded.map(String))
  const levels = SEVERITIES.filter((level) => wanted.has(level))
  return levels.length > 0 ? levels : [...DEFAULT_INGESTED_SEVERITIES]
}

/** The application's allow-list of severities that file import stores (one round trip). */
export async function readIngestedSeverities(scope: AppScope): Promise<Severity[]> {
  const { rows } = await scope.db.execute(appSettings.read(scope, SEVERITIES_KEY))
  return parseSeverities(settingValue(rows))
}

export async function getIngestionSettings(scope: AppScope): Promise<IngestionSettings> {
  return present(await readIngestedSeverities(scope))
}

/**
 * `POST|PUT|PATCH ?api=ingestion-settings` `{severities:[…]}`: values are trimmed, upper-cased and
 * de-duplicated, stored in LEVELS order (reference §3.5). Applies to future imports; a reindex re-applies it.
 */
export async function updateIngestionSettings(scope: AppScope, body: Record<string, unknown>, now: string): Promise<IngestionSettings> {
  const levels = validateSeverities(body.severities)
  await scope.db.execute(appSettings.write(scope, SEVERITIES_KEY, JSON.stringify(levels), now))
  return present(levels)
}

/** The validation of reference §3.5, with its messages. */
export function validateSeverities(value: unknown): Severity[] {
  if (!Array.isArray(value)) throw new InvalidInputError('severities must be an array.')
  const normalized = [...new Set(value.map((level) => String(level ?? '').trim().toUpperCase()))]
  const known = new Set<string>(SEVERITIES)
  const unknown = normalized.filter((level) => !known.has(level))
  if (unknown.length > 0) throw new InvalidInputError(`Unknown severities: ${unknown.join(', ')}.`)
  if (normalized.length === 0) throw new InvalidInputError('Select at least one severity to ingest.')
  return SEVERITIES.filter((level) => normalized.includes(level))
}

/**
 * `PARSER_VERSION * 1000 + bitmask(allowed severities)` (reference §2.9): a file read under another
 * version is cleared and read again from byte 0 the next time it is imported.
 */
export function importVersion(severities: readonly Severity[]): number {
  let mask = 0
  for (const severity of severities) mask |= 1 << SEVERITIES.indexOf(severity)
  return PARSER_VERSION * 1000 + mask
}

function present(levels: readonly Severity[]): IngestionSettings {
  return { available_severities: SEVERITIES, ingested_severities: levels, defaults: DEFAULT_INGESTED_SEVERITIES }
}
