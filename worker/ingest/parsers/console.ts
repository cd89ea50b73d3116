import { normalizeSeverity } from '../severity.ts'
import { normalizeTimestamp } from '../timestamps.ts'
import type { EventStart, LineContext, LogParser } from './parser.ts'

/** `[time] LEVEL: body` — any bracketed time, a known level word in any case. */
const BRACKET_LEVEL =
  /^\[([^\]]+)\]\s+(EMERGENCY|ALERT|CRITICAL|ERROR|ERR|WARNING|WARN|NOTICE|INFO|DEBUG|TRACE|FATAL)[:\s-]+(.*)$/is

/** `ISO-time [LEVEL] body` or `ISO-time LEVEL body` (upper-case level, as in the reference). */
const ISO_LEVEL =
  /^(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s+(?:\[([A-Z]+)\]|([A-Z]+))[:\s-]+(.*)$/s

/** `[time] body`, graded INFO. */
const BRACKET = /^\[([^\]]+)\]\s+(.*)$/s

/**
 * The generic console parser (reference §2.2 row 5); it claims every file, so it is always tried last.
 * Lines are trimmed; the three header shapes are tried in order; a bare level after an ISO time survives
 * (the reference's PCRE empty-group bug is the reason this is pinned by a test). Environment `console`.
 * Blank lines add nothing to a body; lines before any header become standalone INFO events stamped with the
 * file's modification time.
 */
export const consoleParser: LogParser = {
  id: 'console',
  logType: 'console',
  multiline: true,
  supports: () => true,
  header(line: string, context: LineContext): EventStart | null {
    const text = line.trim()
    const first = text.charCodeAt(0)
    if (first === 0x5b) {
      const leveled = BRACKET_LEVEL.exec(text)
      if (leveled !== null) return start(leveled[1]!, leveled[2]!, leveled[3]!, context)
      const plain = BRACKET.exec(text)
      return plain === null ? null : start(plain[1]!, 'INFO', plain[2]!, context)
    }
    if (first < 0x30 || first > 0x39) return null
    const iso = ISO_LEVEL.exec(text)
    return iso === null ? null : start(iso[1]!, iso[2] ?? iso[3]!, iso[4]!, context)
  },
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

function start(time: string, level: string, body: string, context: LineContext): EventStart {
  return {
    occurredAt: normalizeTimestamp(time, context.now),
    severity: normalizeSeverity(level),
    environment: 'console',
    body: body.trim(),
    context: null,
  }
}
