import { normalizeSeverity } from '../severity.ts'
import { normalizeTimestamp } from '../timestamps.ts'
import { countLines, score, type EventStart, type FinishedEvent, type LineContext, type LogParser } from './parser.ts'

/**
 * `2024/05/01 10:00:00 [error] 1234#0: *5 message, client: 1.2.3.4, server: shop, request: "GET / HTTP/1.1",
 * host: "shop.test"` — nginx's `error_log` line: the server's local time without an offset, the level, pid#tid,
 * the connection number (request-bound messages only) and the message.
 */
const HEADER = /^(\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}) \[(emerg|alert|crit|error|warn|notice|info|debug)\] (\d+)#(\d+): (?:\*(\d+) )?(.*)$/s

/** The request fields nginx appends to a message; `request`, `upstream`, `host`, … are quoted, the others one word. */
const FIELD = /, (client|server|request|subrequest|upstream|host|referrer): ("(?:[^"\\]|\\.)*"|[^\s,"]*)/y

/**
 * nginx error logs (`log_type` `nginx_error`, environment `nginx`). Levels map one to one (emerg EMERGENCY,
 * alert ALERT, crit CRITICAL, error ERROR, warn WARNING, notice, info, debug); the time is kept as written, like
 * every time without an offset. The body is the message without the connection number and without the
 * trailing request fields (`client`, `server`, `request`, `upstream`, `host`, `referrer`), which go to the
 * structured context with `pid`, `tid` and `connection` — so one failure on many URLs stays one title.
 * A message can span lines (FastCGI's stderr): lines until the next header are its continuation, and the
 * request fields then end its last line. Lines before the first header belong to no event.
 */
export const nginxErrorParser: LogParser = {
  id: 'nginx-error',
  logType: 'nginx_error',
  multiline: true,
  detect: (name, lines) => score(countLines(lines, (line) => HEADER.test(line)), name.includes('nginx') || name.includes('error')),
  header(line: string, context: LineContext): EventStart | null {
    const first = line.charCodeAt(0)
    if (first < 0x30 || first > 0x39) return null
    const m = HEADER.exec(line)
    if (m === null) return null
    const fields: Record<string, unknown> = { pid: Number(m[3]), tid: Number(m[4]) }
    if (m[5] !== undefined) fields.connection = Number(m[5])
    return { occurredAt: normalizeTimestamp(m[1]!, context.now), severity: normalizeSeverity(m[2]!), environment: 'nginx', body: m[6]!, context: fields }
  },
  continuation: (line) => line,
  orphan: () => null,
  finish(start, body) {
    return splitFields(body, start.context)
  },
}

/** Moves the request fields ending the body's last line into the context (only when the whole tail is fields). */
function splitFields(body: string, context: Record<string, unknown> | null): FinishedEvent {
  const lastLine = body.lastIndexOf('\n') + 1
  let at = body.indexOf(', client: ', lastLine)
  if (at === -1) at = body.indexOf(', server: ', lastLine)
  if (at === -1) return { body, context }
  const fields: Record<string, unknown> = { ...context }
  FIELD.lastIndex = at
  for (let m = FIELD.exec(body); m !== null; m = FIELD.exec(body)) {
    const value = m[2]!
    fields[m[1]!] = value.startsWith('"') ? value.slice(1, -1) : value
    if (FIELD.lastIndex === body.length) return { body: body.slice(0, at), context: fields }
  }
  return { body, context }
}
