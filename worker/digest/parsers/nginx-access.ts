import type { Severity } from '../../../shared/constants.ts'
import { normalizeTimestamp } from '../timestamps.ts'
import { countLines, score, type LogParser } from './parser.ts'

/**
 * nginx/Apache "combined" (and "common") format:
 * `ip - user [10/Oct/2000:13:55:36 -0700] "GET /path?q HTTP/1.1" 500 21 "referer" "agent"`.
 * The request line is any quoted text (nginx writes `"` in it as `\x22`, Apache as `\"`): TLS handshakes sent
 * to a plain-HTTP port, scanners and empty requests (`""`, `"-"`) are logged with a 400 and count as events.
 * Every class is bounded by a character the next token needs, so a failing line costs one linear scan.
 */
const COMBINED =
  /^(\S+)\s+\S+\s+\S+\s+\[([^\]]+)\]\s+"((?:[^"\\]|\\.)*)"\s+(\d{3})\s+(\S+)(?:\s+"((?:[^"\\]|\\.)*)"\s+"((?:[^"\\]|\\.)*)")?/

/** A well-formed request line: method, target and an optional protocol. */
const REQUEST = /^([A-Z]+)\s+(\S+)(?:\s+HTTP\/\S+)?$/

/** `scheme://authority` or `//authority` in front of a proxy-style request target. */
const AUTHORITY = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/[^/]*/

/** nginx and Apache write bytes outside printable ASCII as `\xHH`. */
const ESCAPED_BYTE = /\\x[0-9A-Fa-f]{2}/

/**
 * The nginx access-log parser (reference §2.2 row 3). One event per line; a line that does not match is
 * unparseable. Status ≥500 is ERROR, ≥400 WARNING, else INFO; the body is `HTTP {status} {METHOD} {path}` with
 * the query string stripped, or `HTTP {status} (binary|empty|no|malformed request)` for a request line that is
 * not one (the raw text stays in the context's `target`). The time always carries an offset and is
 * converted to UTC. Detected by its lines; an `access`/`nginx` name is a hint (the reference required it).
 */
export const nginxAccessParser: LogParser = {
  id: 'nginx-access',
  logType: 'nginx_access',
  multiline: false,
  detect: (name, lines) => score(countLines(lines, (line) => COMBINED.test(line)), name.includes('access') || name.includes('nginx')),
  header(line, context) {
    const m = COMBINED.exec(line)
    if (m === null) return null
    const status = Number(m[4])
    const request = m[3]!
    const parts = REQUEST.exec(request)
    const method = parts?.[1] ?? ''
    const target = parts?.[2] ?? request
    const path = parts === null ? '' : requestPath(target)
    return {
      occurredAt: normalizeTimestamp(m[2]!, context.now),
      severity: severityOf(status),
      environment: 'nginx',
      body: parts === null ? `HTTP ${status} ${describeRequest(request)}` : `HTTP ${status} ${method} ${path}`,
      context: {
        ip: m[1]!,
        method,
        target,
        path,
        status,
        bytes: m[5]!,
        referer: m[6] ?? '',
        user_agent: m[7] ?? '',
      },
    }
  },
  continuation: () => null,
  orphan: () => null,
}

function severityOf(status: number): Severity {
  return status >= 500 ? 'ERROR' : status >= 400 ? 'WARNING' : 'INFO'
}

/** One label per kind of non-request, so a night of TLS probes is one issue, not one per handshake. */
function describeRequest(request: string): string {
  if (request === '') return '(empty request)'
  if (request === '-') return '(no request)'
  return ESCAPED_BYTE.test(request) ? '(binary request)' : '(malformed request)'
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
