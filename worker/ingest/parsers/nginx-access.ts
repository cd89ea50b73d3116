import type { Severity } from '../../../shared/constants.ts'
import { normalizeTimestamp } from '../timestamps.ts'
import { fileBaseName, firstLineOf, type LogParser } from './parser.ts'

/**
 * nginx/Apache "combined" (and "common") format, as the reference matches it:
 * `ip - user [10/Oct/2000:13:55:36 -0700] "GET /path?q HTTP/1.1" 500 21 "referer" "agent"`.
 * Every class is bounded by a character the next token needs, so a failing line costs one linear scan.
 */
const COMBINED =
  /^(\S+)\s+\S+\s+\S+\s+\[([^\]]+)\]\s+"([A-Z]+)\s+(\S+)(?:\s+HTTP\/[^"]+)?"\s+(\d{3})\s+(\S+)(?:\s+"([^"]*)"\s+"([^"]*)")?/

/** `scheme://authority` or `//authority` in front of a proxy-style request target. */
const AUTHORITY = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/[^/]*/

/**
 * The nginx access-log parser (reference §2.2 row 3): claims files named `*access*`/`*nginx*` whose first line
 * is a combined-format line. One event per line; lines that do not match are skipped. Status ≥500 is ERROR,
 * ≥400 WARNING, else INFO; the body is `HTTP {status} {METHOD} {path}` with the query string stripped; the
 * time always carries an offset and is converted to UTC.
 */
export const nginxAccessParser: LogParser = {
  id: 'nginx-access',
  logType: 'nginx_access',
  multiline: false,
  supports(fileName, sample) {
    const name = fileBaseName(fileName)
    return (name.includes('access') || name.includes('nginx')) && COMBINED.test(firstLineOf(sample))
  },
  header(line, context) {
    const m = COMBINED.exec(line)
    if (m === null) return null
    const status = Number(m[5])
    const method = m[3]!
    const target = m[4]!
    const path = requestPath(target)
    return {
      occurredAt: normalizeTimestamp(m[2]!, context.now),
      severity: severityOf(status),
      environment: 'nginx',
      body: `HTTP ${status} ${method} ${path}`,
      context: {
        ip: m[1]!,
        method,
        target,
        path,
        status,
        bytes: m[6]!,
        referer: m[7] ?? '',
        user_agent: m[8] ?? '',
      },
    }
  },
  continuation: () => null,
  orphan: () => null,
}

function severityOf(status: number): Severity {
  return status >= 500 ? 'ERROR' : status >= 400 ? 'WARNING' : 'INFO'
}

/** The path of a request target, like PHP's `parse_url($target, PHP_URL_PATH) ?: $target`. */
function requestPath(target: string): string {
  let end = target.length
  const query = target.indexOf('?')
  if (query !== -1) end = query
  const fragment = target.indexOf('#')
  if (fragment !== -1 && fragment < end) end = fragment
  let path = target.slice(0, end)
  const authority = AUTHORITY.exec(path)
  if (authority !== null) path = path.slice(authority[0].length)
  return path === '' ? target : path
}
