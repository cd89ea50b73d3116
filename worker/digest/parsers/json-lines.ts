import type { Severity } from '../../../shared/constants.ts'
import { normalizeSeverity } from '../severity.ts'
import { epochToTimestamp, parseTimestamp } from '../timestamps.ts'
import { countLines, score, type EventStart, type LineContext, type LogParser } from './parser.ts'

// Not in the reference (its parsers are text formats): one JSON object per line, the shape edge runtimes,
// pino, bunyan, winston, structlog and ECS loggers write. Field names are tried in the order listed.
const MESSAGE_KEYS = ['message', 'msg', 'text', 'body', 'event'] as const
const LEVEL_KEYS = ['level', 'severity', 'lvl', 'levelname', 'log.level'] as const
const TIME_KEYS = ['time', 'timestamp', 'ts', '@timestamp', 'date', 'datetime'] as const
const ENV_KEYS = ['env', 'environment'] as const
const ERROR_KEYS = ['err', 'error'] as const
const SYSLOG: readonly Severity[] = ['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR', 'WARNING', 'NOTICE', 'INFO', 'DEBUG']
const NUMERIC = /^-?\d+(?:\.\d+)?$/
const NON_BLANK = /\S/

type JsonObject = Record<string, unknown>

/**
 * JSON lines (`log_type` `json`): detected by the sampled lines that are JSON objects (`.jsonl`/`.ndjson`
 * names are a hint).
 * - message: `message|msg|text|body|event`, else the error's `message`, else the raw line.
 * - level: `level|severity|lvl|levelname|log.level` (also nested `log.level`); words through
 *   `normalizeSeverity`; pino/bunyan numbers 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal (fatal is
 *   ERROR, as FATAL is in §2.1); integers 0–7 are syslog levels (GELF). Missing: INFO.
 * - time: `time|timestamp|ts|@timestamp|date|datetime`, ISO text or epoch s/ms/µs/ns (number or digits);
 *   unparseable: now; missing: the file's modification time (like console lines without a time).
 * - environment: `env|environment`, else `json` (the source kind, as nginx/console/horizon lines get).
 * - an `err`/`error` object's `stack` (or a top-level `stack`) is appended to the body as continuation lines,
 *   so the analyzer finds the exception class and frames; the error object stays in the context without it.
 * - every other field becomes the structured context (null when none remain).
 * A line that is not a JSON object continues the previous event, or is a standalone INFO event before any.
 */
export const jsonLinesParser: LogParser = {
  id: 'json-lines',
  logType: 'json',
  multiline: true,
  detect: (name, lines) => score(countLines(lines, (line) => parseObject(line) !== null), name.endsWith('.jsonl') || name.endsWith('.ndjson')),
  header(line, context) {
    const record = parseObject(line)
    return record === null ? null : fromRecord(record, line, context)
  },
  continuation: (line) => (NON_BLANK.test(line) ? line : null),
  orphan(line, context) {
    const text = line.trim()
    if (text === '') return null
    return { occurredAt: context.fileModifiedAt, severity: 'INFO', environment: 'json', body: text, context: null }
  },
}

function parseObject(line: string): JsonObject | null {
  let i = 0
  while (line.charCodeAt(i) === 0x20 || line.charCodeAt(i) === 0x09) i++
  if (line.charCodeAt(i) !== 0x7b) return null // a line must open with `{` before we pay for JSON.parse
  try {
    const value: unknown = JSON.parse(line)
    return isObject(value) ? value : null
  } catch {
    return null
  }
}

function fromRecord(record: JsonObject, line: string, context: LineContext): EventStart {
  const used = new Set<string>()
  const message = pick(record, MESSAGE_KEYS, used, (v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null))
  const level = pick(record, LEVEL_KEYS, used, severityOf) ?? nestedLevel(record)
  const time = pick(record, TIME_KEYS, used, (v) => v)
  const environment = pick(record, ENV_KEYS, used, (v) => (typeof v === 'string' && v !== '' ? v : null))
  const stackKey = ERROR_KEYS.find((key) => isObject(record[key]) && typeof (record[key] as JsonObject).stack === 'string')
  const stack = stackKey !== undefined ? String((record[stackKey] as JsonObject).stack) : typeof record.stack === 'string' ? record.stack : null
  if (stackKey === undefined && stack !== null) used.add('stack')
  const rest: JsonObject = {}
  let errorMessage: string | null = null
  for (const key in record) {
    if (used.has(key)) continue
    const value = record[key]
    if ((key === 'err' || key === 'error') && isObject(value)) {
      if (typeof value.message === 'string') errorMessage ??= value.message
      if (key === stackKey) {
        const { stack: _moved, ...withoutStack } = value
        assign(rest, key, withoutStack)
        continue
      }
    }
    assign(rest, key, value)
  }
  let body = message ?? errorMessage ?? line.trim()
  if (stack !== null && stack !== '') body += `\n${stack.replace(/\r\n?/g, '\n')}`
  return {
    occurredAt: time === null ? context.fileModifiedAt : (timeOf(time) ?? context.now),
    severity: level ?? 'INFO',
    environment: environment ?? 'json',
    body,
    context: hasKeys(rest) ? rest : null,
  }
}

/** The first key (in priority order) whose value `read` accepts; the key is marked as used. */
function pick<T>(record: JsonObject, keys: readonly string[], used: Set<string>, read: (v: unknown) => T | null): T | null {
  for (const key of keys) {
    const value = record[key]
    if (value === undefined || value === null) continue
    const result = read(value)
    if (result === null) continue
    used.add(key)
    return result
  }
  return null
}

function severityOf(value: unknown): Severity | null {
  if (typeof value === 'string') return NUMERIC.test(value) ? numericSeverity(Number(value)) : normalizeSeverity(value)
  return typeof value === 'number' ? numericSeverity(value) : null
}

function numericSeverity(level: number): Severity | null {
  if (!Number.isFinite(level)) return null
  if (Number.isInteger(level) && level >= 0 && level <= 7) return SYSLOG[level]!
  return level >= 50 ? 'ERROR' : level >= 40 ? 'WARNING' : level >= 30 ? 'INFO' : 'DEBUG'
}

/** ECS writes `"log": {"level": "error"}` when it does not flatten keys; the `log` object stays in the context. */
function nestedLevel(record: JsonObject): Severity | null {
  const log = record.log
  return isObject(log) ? severityOf(log.level) : null
}

function timeOf(value: unknown): string | null {
  if (typeof value === 'number') return epochToTimestamp(value)
  if (typeof value !== 'string') return null
  return NUMERIC.test(value) ? epochToTimestamp(Number(value)) : parseTimestamp(value)
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function hasKeys(object: JsonObject): boolean {
  for (const _key in object) return true
  return false
}

/** Plain assignment, except `__proto__` (a legal JSON key) which must stay data, not become the prototype. */
function assign(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}
