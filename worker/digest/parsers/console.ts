import type { Severity } from '../../../shared/constants.ts'
import { normalizeSeverity } from '../severity.ts'
import { parseTimestamp } from '../timestamps.ts'
import type { EventStart, LineContext, LogParser } from './parser.ts'

/** `[time] LEVEL: body` — any bracketed time, a known level word in any case. */
const BRACKET_LEVEL =
  /^\[([^\]]+)\]\s+(EMERGENCY|ALERT|CRITICAL|ERROR|ERR|WARNING|WARN|NOTICE|INFO|DEBUG|TRACE|FATAL)[:\s-]+(.*)$/is

const ISO_TIME = '\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})?'

/** `ISO-time [LEVEL] body` or `ISO-time LEVEL body` (upper-case level, as in the reference). */
const ISO_LEVEL = new RegExp(`^(${ISO_TIME})\\s+(?:\\[([A-Z]+)\\]|([A-Z]+))[:\\s-]+(.*)$`, 's')

/** `ISO-time body`: a line with its own time and no upper-case level word (RFC 5424's `<pri>1 ` may lead). */
const ISO_ANY = new RegExp(`^(?:<\\d{1,3}>\\d{0,2} ?)?(${ISO_TIME})\\s+(.*)$`, 's')

/**
 * The level word a body may start with once its time is known, in any case, bracketed or followed by a colon
 * (`error: x`, `[warn] x`) — a bare word is prose ("error handling improved").
 */
const LEADING_LEVEL =
  /^(?:\[(emergency|alert|critical|crit|error|err|warning|warn|notice|info|debug|trace|fatal)\]|(emergency|alert|critical|crit|error|err|warning|warn|notice|info|debug|trace|fatal):)\s*(.*)$/is

/** BSD syslog: `May  1 10:00:00 host program[pid]: message` — no year, no offset. */
const SYSLOG = /^([A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}) (\S+) (.*)$/s

/** The time a bracket starts with, when the whole bracket is not one (`[2021-10-03 00:22:20 $46.0]`). */
const LEADING_TIME = new RegExp(`^${ISO_TIME}`)

/** `[time] body`, graded INFO. */
const BRACKET = /^\[([^\]]+)\]\s+(.*)$/s

/** A syslog time more than a day after the file was last written is from the previous year. */
const DAY_MS = 86_400_000

/**
 * The generic console parser (reference §2.2 row 5); it claims every file no other parser recognises, so it is
 * always tried last. Lines are trimmed; the header shapes are tried in order: `[time] LEVEL: body`,
 * `ISO-time LEVEL body` (a bare level after an ISO time survives: the reference's PCRE empty-group bug is the
 * reason this is pinned by a test), `ISO-time body` (a lower-case level word may lead the body), BSD syslog
 * (`May  1 10:00:00 host prog: body`, its year taken from the file's modification time) and `[time] body`.
 * Every line keeps its own time (offsets converted to UTC); a bracketed time with trailing noise keeps its
 * leading ISO part; an unparseable one becomes "now". Environment `console`. Blank lines add nothing to a
 * body; lines before any header become standalone INFO events stamped with the file's modification time.
 */
export const consoleParser: LogParser = {
  id: 'console',
  logType: 'console',
  multiline: true,
  detect: (_name, lines) => {
    let hits = 0
    for (const line of lines) if (hasOwnTime(line)) hits++
    return hits
  },
  header: readHeader,
  continuation(line) {
    const text = line.trim()
    return text === '' ? null : text
  },
  orphan(line, context) {
    const text = line.trim()
    if (text === '') return null
    return { occurredAt: context.fileModifiedAt, severity: 'INFO', environment: 'console', body: text, context: null }
  },
}

function readHeader(line: string, context: LineContext): EventStart | null {
  const text = line.trim()
  const first = text.charCodeAt(0)
  if (first === 0x5b) {
    const leveled = BRACKET_LEVEL.exec(text)
    if (leveled !== null) return start(bracketTime(leveled[1]!, context), normalizeSeverity(leveled[2]!), leveled[3]!)
    const plain = BRACKET.exec(text)
    return plain === null ? null : start(bracketTime(plain[1]!, context), 'INFO', plain[2]!)
  }
  if (first >= 0x30 && first <= 0x39) {
    const iso = ISO_LEVEL.exec(text)
    if (iso !== null) return start(parseTimestamp(iso[1]!) ?? context.now, normalizeSeverity(iso[2] ?? iso[3]!), iso[4]!)
  }
  if ((first >= 0x30 && first <= 0x39) || first === 0x3c) {
    const any = ISO_ANY.exec(text)
    if (any !== null) return leveledBody(parseTimestamp(any[1]!) ?? context.now, any[2]!)
  }
  const syslog = first >= 0x41 && first <= 0x5a ? SYSLOG.exec(text) : null
  if (syslog !== null) {
    const time = syslogTime(syslog[1]!, context.fileModifiedAt)
    if (time !== null) return leveledBody(time, syslog[3]!)
  }
  return null
}

/** Whether a line is a console header with a time of its own (what detection counts). */
function hasOwnTime(line: string): boolean {
  const start = readHeader(line, NO_TIME)
  return start !== null && start.occurredAt !== NO_TIME.now
}

const NO_TIME: LineContext = { now: '', fileModifiedAt: '2000-01-01 00:00:00' }

/** A body whose first word may be its level (`error: boom`); INFO otherwise. */
function leveledBody(occurredAt: string, body: string): EventStart {
  const afterTag = body.indexOf(': ')
  const m = LEADING_LEVEL.exec(body)
  if (m !== null) return start(occurredAt, normalizeSeverity(m[1] ?? m[2]!), m[3]!)
  // syslog-style `program[pid]: error: message`
  const tagged = afterTag > 0 && afterTag < 64 ? LEADING_LEVEL.exec(body.slice(afterTag + 2)) : null
  return start(occurredAt, tagged !== null ? normalizeSeverity(tagged[1] ?? tagged[2]!) : 'INFO', body)
}

function bracketTime(time: string, context: LineContext): string {
  const parsed = parseTimestamp(time)
  if (parsed !== null) return parsed
  const leading = LEADING_TIME.exec(time.trim())
  return (leading === null ? null : parseTimestamp(leading[0])) ?? context.now
}

/** `May  1 10:00:00` in the year of the file's modification time, or the year before when that is later. */
function syslogTime(time: string, fileModifiedAt: string): string | null {
  const year = Number(fileModifiedAt.slice(0, 4))
  const parsed = parseTimestamp(`${time} ${year}`)
  if (parsed === null) return null
  const mtime = Date.parse(`${fileModifiedAt.replace(' ', 'T')}Z`)
  const late = Date.parse(`${parsed.replace(' ', 'T')}Z`) - mtime > DAY_MS
  return late ? parseTimestamp(`${time} ${year - 1}`) : parsed
}

function start(occurredAt: string, severity: Severity, body: string): EventStart {
  return { occurredAt, severity, environment: 'console', body: body.trim(), context: null }
}
