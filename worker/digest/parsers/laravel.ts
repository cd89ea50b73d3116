import { normalizeSeverity } from '../severity.ts'
import { normalizeTimestamp } from '../timestamps.ts'
import { countLines, score, type EventStart, type LineContext, type LogParser } from './parser.ts'

/**
 * A Laravel (Monolog `LineFormatter`) header, in every shape the widely used log viewer `opcodesio/log-viewer`
 * reads (its `LaravelLog` pattern, re-derived here):
 * - `[2026-08-20 09:14:02] production.ERROR: message`, the reference's shape;
 * - an ISO `T`, microseconds and an offset: `[2025-06-09T19:28:44.123456+00:00] production.ERROR: …`
 *   (Monolog's own default date format);
 * - any case of the level word: `local.debug:`, `local.iNfO:`;
 * - text between the time and `env.LEVEL` (a custom formatter's prefix), which is kept in front of the message.
 * The optional middle group is lazy, so a plain header costs no scan of its message; it looks at most 1000
 * characters ahead (log-viewer matches the first 1000 characters of a line, too).
 */
const HEADER =
  /^\[(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(Z|[+-]\d{2}:?\d{2})?)\]\s+(?:(.{0,1000}?)\s+)??(\S+?)\.(emergency|alert|critical|error|warning|notice|info|debug):\s?(.*)$/is

/** The reference's shape, tried first: nearly every header of a Laravel log has it, and it costs less. */
const PLAIN_HEADER = /^\[(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\]\s+([^\s.]+)\.(EMERGENCY|ALERT|CRITICAL|ERROR|WARNING|NOTICE|INFO|DEBUG):\s?(.*)$/s

const OPEN_BRACKET = 0x5b

/**
 * The Laravel parser. `logType` `horizon` is the reference's `LaravelLogParser('horizon')`: it claims only
 * horizon-named files; the plain one is preferred for `laravel*.log` names (reference §2.2 name rules, kept as
 * hints). Both score the sampled lines that are Laravel headers.
 *
 * A time without an offset is kept as written (§2.2 timestamp rule; fractions dropped); one with an offset is
 * converted to UTC. The env token is the environment; every non-header line, blank ones included, is a
 * continuation; lines before the first header belong to no event.
 */
export function createLaravelParser(logType: 'laravel' | 'horizon'): LogParser {
  const forHorizon = logType === 'horizon'
  return {
    id: forHorizon ? 'laravel-horizon' : 'laravel',
    logType,
    multiline: true,
    detect(name, lines) {
      const horizonName = name.includes('horizon')
      if (forHorizon && !horizonName) return 0
      return score(countLines(lines, isHeader), forHorizon || name.startsWith('laravel'))
    },
    header: parseHeader,
    continuation: (line) => line,
    orphan: () => null,
  }
}

function isHeader(line: string): boolean {
  return line.charCodeAt(0) === OPEN_BRACKET && (PLAIN_HEADER.test(line) || HEADER.test(line))
}

function parseHeader(line: string, context: LineContext): EventStart | null {
  if (line.charCodeAt(0) !== OPEN_BRACKET) return null
  const plain = PLAIN_HEADER.exec(line)
  if (plain !== null) return { occurredAt: plain[1]!, severity: normalizeSeverity(plain[3]!), environment: plain[2]!, body: plain[4]!, context: null }
  const m = HEADER.exec(line)
  if (m === null) return null
  const middle = m[3]?.trim() ?? ''
  return {
    occurredAt: m[2] === undefined ? bareTime(m[1]!) : normalizeTimestamp(m[1]!, context.now),
    severity: normalizeSeverity(m[5]!),
    environment: m[4]!,
    body: middle === '' ? m[6]! : `${middle} ${m[6]!}`,
    context: null,
  }
}

/** `YYYY-MM-DD HH:MM:SS` of a time without an offset, as written (a `T` becomes a space, fractions go). */
function bareTime(time: string): string {
  return `${time.slice(0, 10)} ${time.slice(11, 19)}`
}

/** Laravel log files (`log_type` `laravel`). */
export const laravelParser: LogParser = createLaravelParser('laravel')

/** Horizon files written through Laravel's logging stack (`log_type` `horizon`). */
export const laravelHorizonParser: LogParser = createLaravelParser('horizon')
