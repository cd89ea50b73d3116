/**
 * Timestamp rules of reference-behaviour.md §2.2: every stored time is `YYYY-MM-DD HH:MM:SS` in UTC.
 * - An offset-bearing time (ISO `+10:00`/`Z`, nginx `10/Oct/2000:13:55:36 -0700`) is converted to UTC.
 * - A bare time is kept as written (it is assumed to be UTC); fractions of a second are dropped.
 * - Anything unparseable becomes the caller's "now".
 *
 * The reference hands the text to PHP's lenient `DateTimeImmutable`; we accept the shapes log lines actually
 * carry: ISO 8601 / SQL (`-` or `/` date separators), nginx/CLF, RFC 2822, ctime/Apache, and epoch numbers.
 * Calendar overflow (`02-30`, `24:00:00`) rolls over as PHP's parser does.
 */

const MONTHS: ReadonlyMap<string, number> = new Map(
  ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].map((m, i) => [m, i + 1]),
)

/** Offsets (minutes) of the zone names seen in logs; other abbreviations are ambiguous and count as unparseable. */
const ZONES: ReadonlyMap<string, number> = new Map([
  ['Z', 0], ['UT', 0], ['UTC', 0], ['GMT', 0], ['WET', 0], ['WEST', 60], ['BST', 60], ['CET', 60], ['CEST', 120],
  ['EET', 120], ['EEST', 180], ['EST', -300], ['EDT', -240], ['CST', -360], ['CDT', -300], ['MST', -420],
  ['MDT', -360], ['PST', -480], ['PDT', -420], ['JST', 540], ['AEST', 600], ['AEDT', 660],
])

const ISO = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:(?:[Tt]|\s+)(\d{1,2}):(\d{2})(?::(\d{2}))?(?:[.,]\d+)?)?\s*(.*)$/s
const CLF = /^(\d{1,2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:[.,]\d+)?\s*(.*)$/s
const RFC2822 = /^(?:[A-Za-z]{3},?\s+)?(\d{1,2})[\s-]+([A-Za-z]{3})[a-z]*[\s-]+(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(.*)$/s
const CTIME = /^(?:[A-Za-z]{3}\s+)?([A-Za-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})(?:[.,]\d+)?\s+(\d{4})\s*(.*)$/s
const NUMERIC_OFFSET = /^(?:(?:UTC|GMT)(?=[+-]))?([+-])(\d{2}):?(\d{2})?$/

/** 400 Gregorian years, used to keep `Date.UTC` from mapping years 0–99 onto 1900–1999. */
const FOUR_CENTURIES_MS = 146_097 * 86_400_000

/**
 * Parses a timestamp into `YYYY-MM-DD HH:MM:SS` UTC, or returns null when the text is not a time we know.
 * @example parseTimestamp('2026-08-20T10:15:30-07:00') // '2026-08-20 17:15:30'
 */
export function parseTimestamp(value: string): string | null {
  // Consecutive lines usually share their second; a one-entry memo skips the regexes and the Date for them.
  if (value === lastValue) return lastResult
  lastResult = parse(value)
  lastValue = value
  return lastResult
}

let lastValue = ''
let lastResult: string | null = null

function parse(value: string): string | null {
  const text = value.trim()
  let m = ISO.exec(text)
  if (m) return build(+m[1]!, +m[2]!, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), m[7]!)
  m = CLF.exec(text)
  if (m) return build(+m[3]!, month(m[2]!), +m[1]!, +m[4]!, +m[5]!, +m[6]!, m[7]!)
  m = RFC2822.exec(text)
  if (m) return build(+m[3]!, month(m[2]!), +m[1]!, +m[4]!, +m[5]!, +(m[6] ?? 0), m[7]!)
  m = CTIME.exec(text)
  if (m) return build(+m[6]!, month(m[1]!), +m[2]!, +m[3]!, +m[4]!, +m[5]!, m[7]!)
  return null
}

/** {@link parseTimestamp}, falling back to `now` (already `YYYY-MM-DD HH:MM:SS`) when the text is unparseable. */
export function normalizeTimestamp(value: string, now: string): string {
  return parseTimestamp(value) ?? now
}

/**
 * An epoch number as a UTC timestamp. The unit is inferred from the magnitude, as JSON loggers disagree:
 * below 1e11 seconds (up to year 5138), below 1e14 milliseconds, below 1e17 microseconds, else nanoseconds.
 */
export function epochToTimestamp(epoch: number): string | null {
  if (!Number.isFinite(epoch)) return null
  const size = Math.abs(epoch)
  const ms = size < 1e11 ? epoch * 1000 : size < 1e14 ? epoch : size < 1e17 ? epoch / 1000 : epoch / 1e6
  return formatUtc(Math.floor(ms))
}

/** Formats epoch milliseconds as `YYYY-MM-DD HH:MM:SS` UTC; null outside years 0000–9999. */
export function formatUtc(ms: number): string | null {
  const date = new Date(ms)
  const year = date.getUTCFullYear()
  if (Number.isNaN(year) || year < 0 || year > 9999) return null
  return `${String(year).padStart(4, '0')}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(
    date.getUTCHours(),
  )}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
}

function build(y: number, mo: number, d: number, h: number, mi: number, s: number, zone: string): string | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return null
  const offset = zoneOffset(zone)
  if (offset === null) return null
  let ms = Date.UTC(y < 100 ? y + 400 : y, mo - 1, d, h, mi, s) - offset * 60_000
  if (y < 100) ms -= FOUR_CENTURIES_MS
  return formatUtc(ms)
}

/** Offset in minutes east of UTC; 0 for a bare time (assumed UTC); null for a zone we cannot place. */
function zoneOffset(zone: string): number | null {
  if (zone === '') return 0
  const named = ZONES.get(zone.toUpperCase())
  if (named !== undefined) return named
  const m = NUMERIC_OFFSET.exec(zone)
  if (!m) return null
  const hours = +m[2]!
  const minutes = +(m[3] ?? 0)
  if (hours > 23 || minutes > 59) return null
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes)
}

function month(name: string): number {
  return MONTHS.get(name.toLowerCase()) ?? 0
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n)
}
