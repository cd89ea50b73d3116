import { SEVERITIES, type Severity } from '../../shared/constants.ts'

const KNOWN: ReadonlySet<string> = new Set(SEVERITIES)

/**
 * Aliases of reference-behaviour.md §2.1 (WARN, ERR, FATAL, TRACE), plus the syslog abbreviations CRIT and
 * EMERG, which console and JSON logs use and which would otherwise fall to INFO.
 */
const ALIASES: ReadonlyMap<string, Severity> = new Map([
  ['WARN', 'WARNING'],
  ['ERR', 'ERROR'],
  ['FATAL', 'ERROR'],
  ['TRACE', 'DEBUG'],
  ['CRIT', 'CRITICAL'],
  ['EMERG', 'EMERGENCY'],
])

/**
 * Maps a level word from a log line to one of the eight stored severities (§2.1): upper-cased and trimmed,
 * `WARN`→`WARNING`, `ERR`/`FATAL`→`ERROR`, `TRACE`→`DEBUG`, empty→`INFO`.
 *
 * Deliberate deviation: the reference keeps an unknown word (`CUSTOM`) as the severity, which its allow-list
 * then never stores. Our `Severity` is a closed set, so an unknown word becomes `INFO` — the level a line
 * without any level gets — and the event is kept when INFO is allowed.
 *
 * @example normalizeSeverity('warn') // 'WARNING'
 */
export function normalizeSeverity(raw: string): Severity {
  const upper = raw.trim().toUpperCase()
  if (KNOWN.has(upper)) return upper as Severity
  return ALIASES.get(upper) ?? 'INFO'
}
