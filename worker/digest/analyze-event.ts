import { isLibraryPath } from '../../shared/library-path.ts'
import type { LogEvent } from './log-event.ts'

/** What grouping and the issue sample need from one event (reference §2.3, `EventAnalyzer::analyze`). */
export interface AnalyzedEvent {
  readonly title: string
  readonly exceptionClass: string | null
  readonly sourceFrame: string | null
  readonly stack: string | null
  /** JSON text of the context (structured context JSON-encoded, or Laravel's trailing JSON). */
  readonly context: string | null
  /** The event body (what becomes sample_message). */
  readonly message: string
}

/** Laravel's `[object] (Class(code: …` form, or the first word ending in Exception/Error (backslashes allowed). */
const EXCEPTION = /\[object\]\s*\(([^(:]+)|\b([A-Za-z_\\]+(?:Exception|Error))\b/
/**
 * Stack frames: PHP `#N /path/file.php(123)` (the reference), plus two edge extensions: Node
 * `at fn (/path/file.js:10:5)` / `at /path/file.js:10:5`, and Python `File "x.py", line 3`.
 */
const FRAME =
  /^#\d+\s+(.+?\.php)\((\d+)\)|^[ \t]*at (?:[^\n(]*\()?([^\s()]+):(\d+):(\d+)\)?[ \t]*$|^[ \t]*File "([^"\n]+)", line (\d+)/gm
const STACKTRACE = /\[stacktrace\]/i
const TITLE_CUT = / \(Connection:| \{"exception"| SQL: insert into| SQL: update /i
const WHITESPACE = /\s+/g

/**
 * Derives title, exception class, culprit frame, stack and context from an event, as reference §2.3 does:
 * 1. the first line; 2. structured context JSON-encoded, else everything after the body's first ` {` (and the
 * first line is cut there); 3. an `exception`/`error` string in that context is decoded and searched with the
 * message; 4. exception class; 5. frames; 6. culprit = first frame outside library code (Windows paths too),
 * else the first frame; 7. stack = after `[stacktrace]`, else the frames, else the body after its first line;
 * 8. title = first line, whitespace collapsed, cut at the noise markers, 177 characters + `…` over 180.
 *
 * Unescaping is done once, by JSON's rules (`\\` is one backslash), on the exception string only — the
 * reference replaced every literal `\n`, `\r`, `\t` in the whole text, which doubled the backslashes of
 * Windows paths (`C:\\xampp`), turned `\\new` into a line break and left Laravel's closing `"}` in the stack.
 * Laravel's context spans lines (its trace is written with real newlines) and is read without a JSON parser;
 * a context cut short (capture limit) is decoded as far as it goes.
 */
export function analyzeEvent(event: LogEvent): AnalyzedEvent {
  const body = event.body
  let first = firstLine(body).trim()
  let context = ''
  let all = body
  if (event.context !== null && hasKeys(event.context)) {
    context = JSON.stringify(event.context)
    const extra = unescapeOnce(extraText(event.context))
    if (extra !== '') all = `${body}\n${extra}`
  } else {
    const at = body.indexOf(' {')
    if (at !== -1) {
      context = body.slice(at + 1)
      const cut = first.indexOf(' {')
      if (cut !== -1) first = first.slice(0, cut)
      // Only an `exception` or `error` key contributes; without either word there is nothing to parse for.
      if (context.includes('"exception"') || context.includes('"error"')) {
        const extra = contextText(context)
        // The decoded text replaces the raw JSON: searching both found every frame twice, one copy escaped.
        if (extra !== null) all = `${body.slice(0, at)}\n${extra}`
      }
    }
  }

  // The substring checks skip regex scans that cannot match (most events carry no stack at all).
  const frames = all.includes('#') || all.includes('at ') || all.includes('File "') ? framesOf(all) : []
  const stackAt = all.includes('[') ? STACKTRACE.exec(all) : null
  const newline = body.indexOf('\n')
  const stack =
    stackAt !== null ? all.slice(stackAt.index + 12).trim()
    : frames.length > 0 ? frames.join('\n')
    : newline !== -1 ? body.slice(newline + 1).trim()
    : ''
  return {
    title: shortTitle(first),
    exceptionClass: exceptionClassOf(all),
    sourceFrame: frames.find(isApplicationFrame) ?? frames[0] ?? null,
    stack: stack === '' ? null : stack,
    context: context === '' ? null : context,
    message: body,
  }
}

/** PHP's `strtok($body, "\n")`: the first non-empty line (leading newlines skipped), or the body itself. */
function firstLine(body: string): string {
  let start = 0
  while (body.charCodeAt(start) === 0x0a) start++
  if (start >= body.length) return body
  const end = body.indexOf('\n', start)
  return end === -1 ? body.slice(start) : body.slice(start, end)
}

function exceptionClassOf(text: string): string | null {
  if (!text.includes('Exception') && !text.includes('Error') && !text.includes('[object]')) return null
  const m = EXCEPTION.exec(text)
  if (m === null) return null
  // Deliberate deviation: the class inside Laravel's JSON context is JSON-escaped (`App\\Jobs\\X`); the
  // reference stored it doubled. We undo the escaping so the class reads as PHP writes it.
  const name = (m[1] ?? m[2] ?? '').trim().replaceAll('\\\\', '\\')
  return name === '' ? null : name
}

function framesOf(text: string): string[] {
  const frames: string[] = []
  const python: string[] = []
  for (const m of text.matchAll(FRAME)) {
    if (m[1] !== undefined) frames.push(`${m[1]}:${m[2]!}`)
    else if (m[3] !== undefined) frames.push(`${m[3]}:${m[4]!}:${m[5]!}`)
    else python.push(`${m[6]!}:${m[7]!}`)
  }
  // Python prints the innermost call last; reversed, "first frame" means the innermost one as it does for
  // PHP and Node, so the culprit is where the error was raised, not the entry point every error shares.
  return python.length === 0 ? frames : frames.concat(python.reverse())
}

function isApplicationFrame(frame: string): boolean {
  if (frame.startsWith('node:') || frame.startsWith('internal/')) return false
  // Library code is never the culprit (Windows paths included), and neither are Node internals.
  return !isLibraryPath(frame)
}

/** The context's `exception` (else `error`) as PHP's `(string)` cast reads it; objects contribute nothing. */
function extraText(context: unknown): string {
  if (typeof context !== 'object' || context === null || Array.isArray(context)) return ''
  const record = context as Record<string, unknown>
  const value = record.exception ?? record.error
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  return value === true ? '1' : ''
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * The `exception` (else `error`) text of a trailing JSON context, decoded. A one-line context is parsed as
 * JSON. Laravel's context spans lines (its trace has real line breaks, which JSON does not allow), and it puts
 * the exception last: its string is decoded from the last `"exception":"` to the closing quote, in one pass
 * (a nested key of that name would be earlier; quotes inside strings are escaped, so none is mistaken). A
 * context that is not JSON (cut by the capture limit) is decoded as far as it goes. Null without such a string.
 */
function contextText(context: string): string | null {
  if (!context.includes('\n')) {
    const parsed = parseJson(context)
    if (parsed !== undefined) {
      const text = extraText(parsed)
      return text === '' ? null : unescapeOnce(text)
    }
  }
  return partialString(context, '"exception":"') ?? partialString(context, '"error":"')
}

/**
 * The JSON string value after the last `key` (`"exception":"`), decoded: the literal up to its closing quote
 * is handed to the native JSON parser (raw control characters escaped first, as Laravel's trace has real line
 * breaks); a literal without a closing quote (cut by the capture limit) is decoded by hand as far as it goes.
 */
function partialString(text: string, key: string): string | null {
  const at = text.lastIndexOf(key)
  if (at === -1) return null
  const open = at + key.length - 1
  const close = closingQuote(text, open + 1)
  if (close === -1) return decodeEscapes(text, open + 1, true)
  let literal = text.slice(open, close + 1)
  if (literal.includes('\n')) literal = literal.replaceAll('\n', '\\n')
  if (literal.includes('\r')) literal = literal.replaceAll('\r', '\\r')
  if (literal.includes('\t')) literal = literal.replaceAll('\t', '\\t')
  const parsed = parseJson(literal) // any other raw control character fails here and is decoded by hand
  return typeof parsed === 'string' ? parsed : decodeEscapes(literal, 1, true)
}

/** The index of the first `"` from `from` that no backslash escapes, or -1. */
function closingQuote(text: string, from: number): number {
  for (let quote = text.indexOf('"', from); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let slashes = 0
    while (text.charCodeAt(quote - 1 - slashes) === 0x5c) slashes++
    if (slashes % 2 === 0) return quote
  }
  return -1
}

const JSON_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }
const HEX4 = /^[0-9a-fA-F]{4}$/

/**
 * JSON string escapes decoded in one left-to-right pass from `from` (so `\\n` is a backslash and an `n`),
 * stopping at an unescaped `"` when `quoted`. An escape JSON does not know (`\J` in `App\Jobs`) stays as written.
 */
function decodeEscapes(text: string, from: number, quoted: boolean): string {
  let out = ''
  let pos = from
  for (;;) {
    const slash = text.indexOf('\\', pos)
    const quote = quoted ? text.indexOf('"', pos) : -1
    if (quote !== -1 && (slash === -1 || quote < slash)) return out + text.slice(pos, quote)
    if (slash === -1 || slash + 1 >= text.length) return out + text.slice(pos)
    out += text.slice(pos, slash)
    const next = text[slash + 1]!
    if (next === 'u' && HEX4.test(text.slice(slash + 2, slash + 6))) {
      out += String.fromCharCode(parseInt(text.slice(slash + 2, slash + 6), 16))
      pos = slash + 6
    } else {
      out += JSON_ESCAPES[next] ?? `\\${next}`
      pos = slash + 2
    }
  }
}

/**
 * Undoes one more level of escaping when a decoded exception text still reads as an escaped one-liner (a
 * logger that JSON-encoded the trace string twice): no real line break, but literal `\n`. A text with real
 * line breaks is final — a second pass would turn `C:\\new` into a line break.
 */
function unescapeOnce(text: string): string {
  if (text.includes('\n') || !text.includes('\\n')) return text
  return decodeEscapes(text, 0, false)
}

function shortTitle(line: string): string {
  let title = line.trim().replace(WHITESPACE, ' ')
  const cut = TITLE_CUT.exec(title)
  if (cut !== null) title = title.slice(0, cut.index)
  if (title.length <= 180) return title
  // Counted in characters (code points); the reference counted bytes and could split a UTF-8 sequence.
  const chars = Array.from(title)
  return chars.length <= 180 ? title : `${chars.slice(0, 177).join('')}…`
}

function hasKeys(object: Record<string, unknown>): boolean {
  for (const _key in object) return true
  return false
}
