import { normalize } from '../grouping/normalize.ts'
import { analyzeEvent } from '../analyze-event.ts'
import { sha256Joined } from './sha256-sync.ts'
import type { LogEvent } from '../log-event.ts'

/** Caps of reference §2.6: samples at `ingestion.message_limit` (120 000), previews at 12 000 characters. */
export const DEFAULT_MESSAGE_LIMIT = 120_000
export const CONTEXT_PREVIEW_LIMIT = 12_000

/** The file an event was read from, as grouping and the issue sample see it. */
export interface RecordSource {
  readonly moduleId: number | null
  /** The file's base name (reference §2.2 "Channel"). */
  readonly channel: string
}

/** One event ready to persist: its occurrence, the issue it belongs to, and that issue's sample. */
export interface EventRecord {
  readonly fingerprint: string
  readonly exact: string
  readonly hash: string
  readonly occurredAt: string
  readonly severity: string
  readonly environment: string | null
  readonly byteStart: number
  readonly byteEnd: number
  /** `context_preview`, capped. */
  readonly preview: string | null
  readonly title: string
  readonly exceptionClass: string | null
  readonly sourceFrame: string | null
  /** Sample fields, capped at the message limit. */
  readonly message: string
  readonly stack: string | null
  readonly context: string | null
  readonly logType: string
  readonly channel: string
  readonly moduleId: number | null
}

/**
 * Analyses and fingerprints events (reference §2.3–§2.5). Hashing is a synchronous SHA-256 (Web Crypto's async
 * `digest` costs more in promise overhead than the hash itself for strings this short), and the issue and
 * exact fingerprints are memoised per isolate — a log repeats the same few issues and stacks thousands of
 * times, and normalising a long stack costs more than hashing it. This is the one implementation of the
 * §2.5 formulas; test/worker/digest/persist/event-record.test.ts writes them out independently, and
 * test/worker/digest/grouping/golden-fingerprints.test.ts pins every fixture's fingerprints.
 */
export function toEventRecords(events: readonly LogEvent[], source: RecordSource, messageLimit = DEFAULT_MESSAGE_LIMIT): EventRecord[] {
  return events.map((event) => toEventRecord(event, source, messageLimit))
}

/**
 * What a client that reports events itself (HTTP and Sentry ingest) knows better than the analyser: the
 * exception class, the culprit frame (Sentry's top in-app frame), its own stack text, and a custom grouping
 * key, which alone (with the module and log type) then decides the issue.
 */
export interface RecordOverrides {
  readonly exceptionClass?: string | null
  readonly sourceFrame?: string | null
  readonly groupingKey?: string | null
  /** The stack as the client wrote it (function names included), kept instead of the frames the analyser found. */
  readonly stack?: string | null
}

export function toEventRecord(event: LogEvent, source: RecordSource, messageLimit = DEFAULT_MESSAGE_LIMIT, overrides: RecordOverrides = {}): EventRecord {
  const analysis = analyzeEvent(event)
  const stack = overrides.stack ?? analysis.stack
  const exceptionClass = overrides.exceptionClass || analysis.exceptionClass || null
  const sourceFrame = overrides.sourceFrame || analysis.sourceFrame || null
  const fingerprint = overrides.groupingKey
    ? sha256Joined([source.moduleId === null ? 'unassigned' : String(source.moduleId), event.logType, 'fingerprint', overrides.groupingKey], '|')
    : issueFingerprint(source.moduleId, event.logType, event.severity, exceptionClass, normalize(analysis.title), sourceFrame === null ? '' : normalizedFrame(sourceFrame))
  return {
    fingerprint,
    exact: exactFingerprintOf(fingerprint, stack),
    hash: sha256Joined([event.occurredAt, event.severity, event.environment ?? '', event.logType, source.channel, event.body], '|'),
    occurredAt: event.occurredAt,
    severity: event.severity,
    environment: event.environment,
    byteStart: event.byteStart,
    byteEnd: event.byteEnd,
    preview: cap(analysis.context, CONTEXT_PREVIEW_LIMIT),
    title: analysis.title,
    exceptionClass,
    sourceFrame,
    message: cap(analysis.message, messageLimit) ?? '',
    stack: cap(stack, messageLimit),
    context: cap(analysis.context, messageLimit),
    logType: event.logType,
    channel: source.channel,
    moduleId: source.moduleId,
  }
}

function cap(text: string | null, limit: number): string | null {
  if (text === null) return null
  return text.length <= limit ? text : text.slice(0, limit)
}

// Per-isolate memo tables, emptied when they grow past MEMO_LIMIT (a log with more distinct issues than
// that gains nothing from them anyway). Titles usually differ only in ids, so the issue fingerprint is
// memoised by its normalised inputs.
const MEMO_LIMIT = 20_000
const groupMemo = new Map<string, string>()
const frameMemo = new Map<string, string>()
const exactMemo = new Map<string, Map<string, string>>()
let exactEntries = 0

/** `sha256(module|log_type|severity|exception_class|normalize(title)|normalize(frame))` (§2.5), memoised. */
function issueFingerprint(moduleId: number | null, logType: string, severity: string, exceptionClass: string | null, title: string, frame: string): string {
  const parts = [moduleId === null ? 'unassigned' : String(moduleId), logType, severity, exceptionClass ?? '', title, frame]
  const key = parts.join('\u0000')
  let fingerprint = groupMemo.get(key)
  if (fingerprint === undefined) {
    if (groupMemo.size >= MEMO_LIMIT) groupMemo.clear()
    fingerprint = sha256Joined(parts, '|')
    groupMemo.set(key, fingerprint)
  }
  return fingerprint
}

function normalizedFrame(frame: string): string {
  let normal = frameMemo.get(frame)
  if (normal === undefined) {
    if (frameMemo.size >= MEMO_LIMIT) frameMemo.clear()
    normal = normalize(frame)
    frameMemo.set(frame, normal)
  }
  return normal
}

/** `sha256(fingerprint|normalize(stack))` (§2.5), memoised per issue and stack. */
function exactFingerprintOf(fingerprint: string, stack: string | null): string {
  const key = stack ?? ''
  let stacks = exactMemo.get(fingerprint)
  let exact = stacks?.get(key)
  if (exact !== undefined) return exact
  if (exactEntries >= MEMO_LIMIT) {
    exactMemo.clear()
    exactEntries = 0
    stacks = undefined
  }
  if (stacks === undefined) exactMemo.set(fingerprint, (stacks = new Map()))
  exact = sha256Joined([fingerprint, normalize(key)], '|')
  stacks.set(key, exact)
  exactEntries++
  return exact
}
