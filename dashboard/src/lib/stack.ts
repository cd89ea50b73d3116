import { isLibraryPath } from '../../../shared/library-path.ts'

/**
 * Stack traces as structured frames for the issue page's stack view (issue 17 item 6): PHP/Laravel
 * (`#3 /app/x.php(12): f()`), Node/JavaScript (`at f (/app/x.js:12:5)`), Python (`File "/app/x.py", line 12,
 * in f` with its source line) and Java (`at com.acme.Foo.bar(Foo.java:42)`). Text that is not a frame (the
 * exception line, `Caused by:`, `[stacktrace]`) stays as a text line. Stacks cut out of JSON (Laravel's
 * context) arrive with escaped backslashes and a trailing `"}`: both are cleaned here.
 */
export interface StackFrame {
  readonly kind: 'frame'
  /** The line as shown (unescaped, trimmed). */
  readonly text: string
  readonly file: string | null
  readonly line: number | null
  readonly fn: string | null
  /** Third-party or runtime code: folded by default. */
  readonly vendor: boolean
  /** The culprit frame (reference §2.3 step 6). */
  readonly culprit: boolean
  /** Source lines known for the frame (Python prints the frame's line under it). */
  readonly context: string[]
}

export interface StackText {
  readonly kind: 'text'
  readonly text: string
}

export type StackLine = StackFrame | StackText

/** A run of lines: application frames and text, or a fold of two or more vendor frames. */
export interface StackSegment {
  readonly vendor: boolean
  readonly lines: StackLine[]
}

const PHP_FRAME = /^#\d+\s+(?:(.+?)\((\d+)\):\s*(.*)|(\[internal function\]):\s*(.*)|(\{main\}))$/
const JS_FRAME = /^at\s+(?:(?:async\s+)?(.+?)\s+\((.+?):(\d+)(?::\d+)?\)|(?:async\s+)?(.+?):(\d+)(?::\d+)?)$/
const JS_NATIVE = /^at\s+(?:async\s+)?(.+?)\s+\((native|index \d+|<anonymous>)\)$/
const PYTHON_FRAME = /^File "(.+?)", line (\d+)(?:, in (.+))?$/
const JAVA_FRAME = /^at\s+([\w$.<>/]+)\(([^():]*)(?::(\d+))?\)$/
/** JVM, runtime and framework packages a Java stack is mostly made of. */
const JAVA_LIBRARY = /^(?:java|javax|jdk|sun|com\.sun|kotlin|scala|org\.springframework|org\.apache|org\.hibernate|org\.eclipse|org\.junit|com\.fasterxml|io\.netty|reactor|io\.micrometer)\./
/** Node's own modules, and interpreter paths of Python's standard library. */
const RUNTIME_PATH = /^(?:node:|internal\/)|[\\/]lib[\\/]python\d/

/** Undoes JSON string escaping left in text cut out of a JSON context: `\\` → `\`, `\/` → `/`, `\"` → `"`. */
export function unescapeStackText(text: string): string {
  if (!text.includes('\\\\') && !text.includes('\\/') && !text.includes('\\n')) return text
  // A stack stored as one JSON string: its line breaks are literal `\n` — read it as the JSON string it is.
  if (!text.includes('\n') && text.includes('\\n')) {
    try {
      const value: unknown = JSON.parse(`"${text}"`)
      if (typeof value === 'string') return value
    } catch {
      // Not a whole JSON string (an unescaped quote): unescaped piecewise below.
    }
  }
  return text.replace(/\\(\\|\/|")/g, '$1')
}

/** Parses a stack into lines, marking vendor frames and the culprit (`source_frame`, e.g. `/app/x.php:12`). */
export function parseStack(stack: string, culprit: string | null = null): StackLine[] {
  const lines = unescapeStackText(stack).replace(/\r\n?/g, '\n').split('\n')
  const out: StackLine[] = []
  let culpritFound = false
  for (const raw of lines) {
    const text = raw.trim()
    // JSON punctuation left where the stack was cut out of a context (`"}`, `"]}`), and blank lines.
    if (text === '' || /^["'\]}),\s]+$/.test(text)) continue
    const previous = out[out.length - 1]
    const frame = parseFrame(text)
    if (frame === null) {
      // Python prints the frame's source line indented under it.
      if (previous?.kind === 'frame' && previous.file !== null && /\.py$/.test(previous.file) && previous.context.length === 0 && /^\s{4,}/.test(raw)) {
        previous.context.push(text)
        continue
      }
      out.push({ kind: 'text', text })
      continue
    }
    const isCulprit = !culpritFound && culprit !== null && matchesCulprit(frame, unescapeStackText(culprit))
    if (isCulprit) culpritFound = true
    out.push({ kind: 'frame', text, ...frame, culprit: isCulprit, context: [] })
  }
  return out
}

/** Runs of application lines and folds of vendor frames (a lone vendor frame is not worth a fold). */
export function splitStack(stack: string, culprit: string | null = null): StackSegment[] {
  const segments: StackSegment[] = []
  for (const line of parseStack(stack, culprit)) {
    const vendor = line.kind === 'frame' && line.vendor && !line.culprit
    const last = segments[segments.length - 1]
    if (last && last.vendor === vendor) last.lines.push(line)
    else segments.push({ vendor, lines: [line] })
  }
  return segments.map((segment) => (segment.vendor && segment.lines.length < 2 ? { vendor: false, lines: segment.lines } : segment))
}

function parseFrame(text: string): Omit<StackFrame, 'kind' | 'text' | 'culprit' | 'context'> | null {
  let match = PHP_FRAME.exec(text)
  if (match) {
    if (match[6] || match[4]) return { file: null, line: null, fn: match[5] ?? match[6] ?? null, vendor: true }
    const file = match[1]!
    return { file, line: Number(match[2]), fn: match[3] || null, vendor: isLibraryPath(file) }
  }
  match = PYTHON_FRAME.exec(text)
  if (match) return { file: match[1]!, line: Number(match[2]), fn: match[3] ?? null, vendor: isLibraryPath(match[1]!) || RUNTIME_PATH.test(match[1]!) }
  match = JAVA_FRAME.exec(text)
  if (match && !match[2]!.includes('/') && /\.(?:java|kt|scala|groovy)$|^(?:Native Method|Unknown Source)$/.test(match[2]!)) {
    const fn = match[1]!
    return { file: match[2]!, line: match[3] ? Number(match[3]) : null, fn, vendor: JAVA_LIBRARY.test(fn.replace(/^[\w.]+\//, '')) }
  }
  match = JS_NATIVE.exec(text)
  if (match) return { file: null, line: null, fn: match[1]!, vendor: true }
  match = JS_FRAME.exec(text)
  if (match) {
    const file = match[2] ?? match[4]!
    return { file, line: Number(match[3] ?? match[5]), fn: match[1] ?? null, vendor: isLibraryPath(file) || RUNTIME_PATH.test(file) }
  }
  return null
}

/** The culprit is `path:line` (or a path): a frame matches when its file ends with that path and the lines agree. */
function matchesCulprit(frame: Pick<StackFrame, 'file' | 'line'>, culprit: string): boolean {
  if (frame.file === null) return false
  const match = /^(.*?)(?::(\d+))?(?::\d+)?$/.exec(culprit.trim())!
  const path = match[1]!
  if (path === '' || !(frame.file === path || frame.file.endsWith(path) || path.endsWith(frame.file))) return false
  return match[2] === undefined || frame.line === Number(match[2])
}

/**
 * The code-host link of a frame from the releases plugin's `repo_url_template` — the same rule as the
 * worker's `sourceLink` (worker/plugins/releases/release-settings.ts): `{path}` without its leading `/`,
 * each segment encoded, `{ref}` the default ref or `main`, `{line}` the line.
 */
export function frameLink(template: string, defaultRef: string, file: string, line: number | null): string | null {
  if (template === '') return null
  let path = file
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname
    } catch {
      // Not a URL after all: used as written.
    }
  }
  const encoded = path.replace(/\\/g, '/').replace(/^~?\/+/, '').split('/').map(encodeURIComponent).join('/')
  return template.replaceAll('{ref}', encodeURIComponent(defaultRef || 'main')).replaceAll('{path}', encoded).replaceAll('{line}', line === null ? '' : String(line))
}

/** Pretty-prints JSON context when it parses, else returns it unchanged. */
export function prettyJson(text: string | null | undefined): string {
  if (!text) return ''
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}
