import { InvalidInputError } from '../errors.ts'

/**
 * Which names are log files: the reference's default `/\.log(?:\.\d+)?$/i` (rotated `app.log.1` included),
 * plus JSON lines (`.jsonl`, `.ndjson`), which Loupe parses too.
 */
export const LOG_FILE_PATTERN = /(?:\.log(?:\.\d+)?|\.jsonl|\.ndjson)$/i

/** Largest upload `import-incoming` accepts in its body (Cloudflare's own request limit is 100 MB on most plans). */
export const UPLOAD_MAX_BYTES = 100 * 1024 * 1024

export const UPLOAD_PATH_MESSAGE =
  'file must be a relative path such as billing/laravel.log: up to 4 segments of letters, digits, ".", "_" and "-", none starting with a dot.'
export const UPLOAD_NAME_MESSAGE = 'file must name a log file ending in .log, .log.N, .jsonl or .ndjson.'
export const UPLOAD_EMPTY_MESSAGE = 'Send the log file as the request body (e.g. curl --data-binary @laravel.log).'
export const UPLOAD_FILE_EMPTY_MESSAGE = 'file is empty: name the uploaded log file, e.g. file=billing/laravel.log.'
export const UPLOAD_FILE_MISSING_MESSAGE =
  'Name the uploaded log file with ?file=<module>/<name> (e.g. file=billing/laravel.log); without file the body may only be a JSON object such as {"retry": 3}.'

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/
const MAX_PATH = 400

export function isLogFileName(name: string): boolean {
  return LOG_FILE_PATTERN.test(name)
}

/**
 * Validates the `file` query parameter of an upload: `<module>/<name>` or `<name>`, at most four segments,
 * conservative characters only (no `..`, no leading `/`, no hidden files), and a log file name.
 */
export function parseUploadPath(value: string | undefined): string {
  const path = value ?? ''
  if (path.replaceAll('/', '').trim() === '') throw new InvalidInputError(UPLOAD_FILE_EMPTY_MESSAGE)
  const segments = path.split('/')
  if (path.length === 0 || path.length > MAX_PATH || segments.length > 4 || !segments.every((segment) => SEGMENT.test(segment))) {
    throw new InvalidInputError(UPLOAD_PATH_MESSAGE)
  }
  if (!isLogFileName(segments[segments.length - 1]!)) throw new InvalidInputError(UPLOAD_NAME_MESSAGE)
  return path
}

/** A path below `incoming/<app>/`: the first folder names the module (reference §6), the rest is the file. */
export interface IncomingPath {
  readonly folder: string | null
  /** The path below the module folder (or the whole path when there is none). */
  readonly rest: string
  /** The file's base name: its channel (reference §2.2). */
  readonly name: string
}

export function splitIncomingPath(relative: string): IncomingPath {
  const segments = relative.split('/')
  const name = segments[segments.length - 1]!
  if (segments.length < 2 || segments[0]!.trim() === '') return { folder: null, rest: relative, name }
  return { folder: segments[0]!, rest: segments.slice(1).join('/'), name }
}

/** A key that would leave its prefix or hide a traversal is never read or written. */
export function isSafeRelativePath(relative: string): boolean {
  return relative !== '' && !relative.startsWith('/') && !relative.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')
}

/**
 * `laravel.log` → `laravel-20260820-091402-a1b2c3.log`: the archive's name when the plain one is taken by
 * another file (reference §6 uses `-Ymd-His-hash6`; we keep the log extension last so the name still
 * passes the log-file filter).
 */
export function collisionName(name: string, now: string, hash6: string): string {
  const match = LOG_FILE_PATTERN.exec(name)
  const stem = match ? name.slice(0, match.index) : name
  const extension = match ? match[0] : '.log'
  const stamp = now.replaceAll('-', '').replace(' ', '-').replaceAll(':', '')
  return `${stem}-${stamp}-${hash6}${extension}`
}
