import { normalizeSeverity } from '../severity.ts'
import { fileBaseName, firstLineOf, type LogParser } from './parser.ts'

/**
 * `[2026-08-20 09:14:02] production.ERROR: message` (reference §2.2 rows 1 and 4). The `s` flag lets `.` take a
 * stray `\r` or U+2028 inside the message, as PCRE's `.` does.
 */
const HEADER = /^\[(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\]\s+([^.\s]+)\.([A-Z]+):\s?(.*)$/s

const OPEN_BRACKET = 0x5b

/**
 * The Laravel parser. `logType` `horizon` is the reference's `LaravelLogParser('horizon')`: it claims only
 * horizon-named files, the plain one only files whose name does not contain `horizon`, and both only when the
 * first line is a Laravel header (so a horizon file in console framing falls through to the next parser).
 *
 * The time is bare and is stored verbatim (§2.2 timestamp rule); the env token is the environment; every
 * non-header line, blank ones included, is a continuation; lines before the first header belong to no event.
 */
export function createLaravelParser(logType: 'laravel' | 'horizon'): LogParser {
  const forHorizon = logType === 'horizon'
  return {
    id: forHorizon ? 'laravel-horizon' : 'laravel',
    logType,
    multiline: true,
    supports(fileName, sample) {
      const named = fileBaseName(fileName).includes('horizon')
      return named === forHorizon && HEADER.test(firstLineOf(sample))
    },
    header(line) {
      if (line.charCodeAt(0) !== OPEN_BRACKET) return null
      const m = HEADER.exec(line)
      if (m === null) return null
      return { occurredAt: m[1]!, severity: normalizeSeverity(m[3]!), environment: m[2]!, body: m[4]!, context: null }
    },
    continuation: (line) => line,
    orphan: () => null,
  }
}

/** Laravel log files (`log_type` `laravel`). */
export const laravelParser: LogParser = createLaravelParser('laravel')

/** Horizon files written through Laravel's logging stack (`log_type` `horizon`). */
export const laravelHorizonParser: LogParser = createLaravelParser('horizon')
