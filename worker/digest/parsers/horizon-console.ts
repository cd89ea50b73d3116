import type { Severity } from '../../../shared/constants.ts'
import { normalizeTimestamp } from '../timestamps.ts'
import { countLines, score, type EventStart, type LineContext, type LogParser } from './parser.ts'

/** `[2026-08-20 03:00:02][7f3a1c2e] Failed:     App\Jobs\SyncCustomer` (the job id is optional). */
const BRACKETED = /^\[(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}[^\]]*)\](?:\[[^\]]*\])?\s+(.+)$/s

/** The bracketed framing with its job id: Horizon's own, where the bare `[time] text` is any console's. */
const BRACKETED_WITH_ID = /^\[\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}[^\]]*\]\[[^\]]*\]\s+\S/

const TIME = '\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})?'

/** `2026-08-20 03:00:02 App\Jobs\SyncCustomer ......... 1s FAIL`: the job, then dots and the detail. */
const PROGRESS = new RegExp(`^(${TIME})\\s+(\\S.*?)\\s*\\.{3,}\\s*(.*)$`, 's')

/**
 * The same line without the dots, which Horizon drops when the job name leaves no room for them
 * (`… ConvertAndCompressPostVideo  20s DONE`, `App\Jobs\TestJob  32 s. DONE`): then the status word must end it.
 */
const PROGRESS_BARE = new RegExp(`^(${TIME})\\s+(\\S+)\\s+(.*?\\b(?:RUNNING|DONE|FAIL|FAILED|PROCESSING|PROCESSED))\\s*$`, 's')

/** A time inside a progress line: a line Horizon overwrote carries the next one after it. */
const INNER_TIME = new RegExp(`\\s(${TIME})\\s+\\S`, 'g')

/** A short dot leader left at the start of a bare progress line's detail. */
const LEADER = /^[\s.]+/

/** What `php artisan horizon` prints when it (re)starts, plain or with Laravel's `INFO` badge. */
const BANNER = /^\s*(?:INFO\s+)?Horizon started successfully\.?\s*$/

/** The verbs that mean the job did not make it. */
const FAILURE = /^failed\b|\bFAIL(?:ED)?$/i

/** An exception class where the verb would be: the line after `Failed:` is the exception itself. */
const EXCEPTION_START = /^[A-Za-z_][A-Za-z0-9_\\]*(?:Exception|Error)\b/

/**
 * Horizon / `queue:work` console output (reference §2.2 row 2). Neither framing carries a level, so the verb
 * is the level: `Failed`/`FAIL(ED)`, or a body starting with an `…Exception`/`…Error` class, is ERROR and
 * everything else INFO. The progress form's body is `Job — detail`. Environment `horizon`.
 *
 * Detection counts the lines only Horizon writes — the bracketed framing with a job id, progress lines and
 * its start banner — so a file that starts with `Horizon started successfully.` is Horizon whatever its name;
 * in a horizon-named file (the reference's rule) any bracketed line counts too.
 *
 * As in the reference, blank lines add nothing to a body and continuation lines are trimmed (they still belong
 * to the event's byte range); lines before the first header belong to no event. The start banner is neither
 * part of an event nor unparseable.
 */
export const horizonConsoleParser: LogParser = {
  id: 'horizon-console',
  logType: 'horizon',
  multiline: true,
  detect(name, lines) {
    const named = name.includes('horizon')
    return score(countLines(lines, (line) => isHorizonLine(line, named)), named)
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
    if (first < 0x30 || first > 0x39) return null
    return progress(lastEntryOf(line), context)
  },
  continuation(line) {
    const trimmed = line.trim()
    return trimmed === '' || BANNER.test(trimmed) ? null : trimmed
  },
  orphan: () => null,
  isNoise: (line) => BANNER.test(line),
}

function isHorizonLine(raw: string, named: boolean): boolean {
  const line = raw.trimStart()
  if (line.charCodeAt(0) === 0x5b) return named ? BRACKETED.test(line) : BRACKETED_WITH_ID.test(line)
  return BANNER.test(line) || isProgress(line)
}

function isProgress(line: string): boolean {
  const first = line.charCodeAt(0)
  if (first < 0x30 || first > 0x39) return false
  return line.includes('...') ? PROGRESS.test(line) : PROGRESS_BARE.test(line)
}

function progress(line: string, context: LineContext): EventStart | null {
  const m = line.includes('...') ? PROGRESS.exec(line) : PROGRESS_BARE.exec(line)
  if (m === null) return null
  // Short dot leaders (`RegisterResourceViews . 31.97ms DONE`) stay in the bare form's detail: drop them.
  const detail = m[3]!.replace(LEADER, '').trim()
  const body = detail === '' ? m[2]! : `${m[2]!} — ${detail}`
  return start(normalizeTimestamp(m[1]!, context.now), severityFor(detail), body)
}


/**
 * The last entry of a progress line Horizon overwrote before it finished (`… 02:15:58 App\Jobs\X  2023-08-20
 * 02:15:59 App\Jobs\X  25.14ms DONE`): as log-viewer does, the incomplete beginning is dropped.
 */
function lastEntryOf(line: string): string {
  if (line.length < 40) return line
  let last = -1
  for (const m of line.matchAll(INNER_TIME)) last = m.index + 1
  return last > 0 && isProgress(line.slice(last)) ? line.slice(last) : line
}

function severityFor(text: string): Severity {
  return FAILURE.test(text) || EXCEPTION_START.test(text) ? 'ERROR' : 'INFO'
}

function start(occurredAt: string, severity: Severity, body: string): EventStart {
  return { occurredAt, severity, environment: 'horizon', body, context: null }
}
