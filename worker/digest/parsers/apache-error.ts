import type { Severity } from '../../../shared/constants.ts'
import { normalizeSeverity } from '../severity.ts'
import { normalizeTimestamp } from '../timestamps.ts'
import { countLines, score, type EventStart, type LineContext, type LogParser } from './parser.ts'

/**
 * Apache httpd's `ErrorLog` line, 2.4 and 2.2:
 * `[Wed May 01 10:00:00.123456 2024] [core:error] [pid 123:tid 456] [client 1.2.3.4:5678] AH00126: message`
 * `[Sun Dec 04 04:47:44 2005] [error] [client 1.2.3.4] message`.
 * The time is the server's local time without an offset; the module and the pid/tid/remote/client parts are
 * optional (2.4's unnamed module is `[:error]`).
 */
const HEADER =
  /^\[((?:[A-Za-z]{3} ){2} ?\d{1,2} \d{2}:\d{2}:\d{2}(?:\.\d+)? \d{4})\] \[(?:([^:\]]*):)?(emerg|alert|crit|error|warn|notice|info|debug|trace[1-8])\](?: \[pid (\d+)(?::tid (\d+))?\])?(?: \[remote ([^\]]*)\])?(?: \[client ([^\]]*)\])? ?(.*)$/s

/** 2.4 ends a request's message with the referer: a per-request value, kept in the context instead. */
const REFERER = ', referer: '

/**
 * Apache error logs (`log_type` `apache_error`, environment `apache`). Levels emerg…debug map to the eight
 * severities (warn WARNING, crit CRITICAL, emerg EMERGENCY), trace1–trace8 to DEBUG. The body is the message
 * (with its `AHnnnnn:` code, which names the condition); module, pid, tid, remote, client and referer go to
 * the structured context. Lines until the next header continue the message (a CGI's stderr); lines before
 * the first header belong to no event.
 */
export const apacheErrorParser: LogParser = {
  id: 'apache-error',
  logType: 'apache_error',
  multiline: true,
  detect: (name, lines) =>
    score(countLines(lines, (line) => line.charCodeAt(0) === 0x5b && HEADER.test(line)), name.includes('apache') || name.includes('httpd') || name.includes('error')),
  header(line: string, context: LineContext): EventStart | null {
    if (line.charCodeAt(0) !== 0x5b) return null
    const m = HEADER.exec(line)
    if (m === null) return null
    const fields: Record<string, unknown> = {}
    if (m[2]) fields.module = m[2]
    if (m[4] !== undefined) fields.pid = Number(m[4])
    if (m[5] !== undefined) fields.tid = Number(m[5])
    if (m[6] !== undefined) fields.remote = m[6]
    if (m[7] !== undefined) fields.client = m[7]
    let body = m[8]!
    const referer = body.lastIndexOf(REFERER)
    if (referer !== -1) {
      fields.referer = body.slice(referer + REFERER.length)
      body = body.slice(0, referer)
    }
    return {
      occurredAt: normalizeTimestamp(m[1]!, context.now),
      severity: severityOf(m[3]!),
      environment: 'apache',
      body,
      context: Object.keys(fields).length > 0 ? fields : null,
    }
  },
  continuation: (line) => line,
  orphan: () => null,
}

function severityOf(level: string): Severity {
  return level.startsWith('trace') ? 'DEBUG' : normalizeSeverity(level)
}
