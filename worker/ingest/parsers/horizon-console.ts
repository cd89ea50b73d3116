import type { Severity } from '../../../shared/constants.ts'
import { normalizeTimestamp } from '../timestamps.ts'
import { fileBaseName, firstNonBlankLineOf, type EventStart, type LineContext, type LogParser } from './parser.ts'

/** `[2026-08-20 03:00:02][7f3a1c2e] Failed:     App\Jobs\SyncCustomer` (the job id is optional). */
const BRACKETED = /^\[(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}[^\]]*)\](?:\[[^\]]*\])?\s+(.+)$/s

/** `2026-08-20 03:00:02 App\Jobs\SyncCustomer ......... 1s FAIL` */
const PROGRESS = /^(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s+(\S.*?)\s*\.{3,}\s*(.*)$/s

/** The verbs that mean the job did not make it. */
const FAILURE = /^failed\b|\bFAIL(?:ED)?$/i

/** An exception class where the verb would be: the line after `Failed:` is the exception itself. */
const EXCEPTION_START = /^[A-Za-z_][A-Za-z0-9_\\]*(?:Exception|Error)\b/

/**
 * Horizon / `queue:work` console output (reference §2.2 row 2). Neither framing carries a level, so the verb
 * is the level: `Failed`/`FAIL(ED)`, or a body starting with an `…Exception`/`…Error` class, is ERROR and
 * everything else INFO. The progress form's body is `Job — detail`. Environment `horizon`.
 *
 * As in the reference, blank lines add nothing to a body and continuation lines are trimmed (they still belong
 * to the event's byte range); lines before the first header belong to no event.
 */
export const horizonConsoleParser: LogParser = {
  id: 'horizon-console',
  logType: 'horizon',
  multiline: true,
  supports(fileName, sample) {
    if (!fileBaseName(fileName).includes('horizon')) return false
    const line = firstNonBlankLineOf(sample)
    return BRACKETED.test(line) || isProgress(line)
  },
  header(raw: string, context: LineContext): EventStart | null {
    // Deliberate deviation: Laravel's progress output is indented two spaces. The reference matched the
    // untrimmed line (while its `supports` trimmed), so such a file was claimed and then parsed to nothing.
    const line = raw.charCodeAt(0) === 0x20 || raw.charCodeAt(0) === 0x09 ? raw.trimStart() : raw
    const first = line.charCodeAt(0)
    if (first === 0x5b) {
      const m = BRACKETED.exec(line)
      if (m === null) return null
      const body = m[2]!.trim()
      return start(normalizeTimestamp(m[1]!, context.now), severityFor(body), body)
    }
    if (first < 0x30 || first > 0x39 || !line.includes('...')) return null
    const m = PROGRESS.exec(line)
    if (m === null) return null
    const detail = m[3]!.trim()
    const body = detail === '' ? m[2]! : `${m[2]!} — ${detail}`
    return start(normalizeTimestamp(m[1]!, context.now), severityFor(detail), body)
  },
  continuation(line) {
    const trimmed = line.trim()
    return trimmed === '' ? null : trimmed
  },
  orphan: () => null,
}

function isProgress(line: string): boolean {
  return line.includes('...') && PROGRESS.test(line)
}

function severityFor(text: string): Severity {
  return FAILURE.test(text) || EXCEPTION_START.test(text) ? 'ERROR' : 'INFO'
}

function start(occurredAt: string, severity: Severity, body: string): EventStart {
  return { occurredAt, severity, environment: 'horizon', body, context: null }
}
