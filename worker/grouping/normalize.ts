/**
 * Replacements of reference-behaviour.md §2.4, in this order: the specific patterns must run before the
 * generic number rule, or every digit becomes `{n}` and the later patterns never match.
 */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\b/gi
const DATETIME = /\b\d{4}-\d\d-\d\d[ tT]\d\d:\d\d:\d\d\S*/g
const IPV4 = /\b(?:\d{1,3}\.){3}\d{1,3}\b/g
const RELEASE = /\/releases\/[^/\s]+\//g
const LINE = /:\d+\b/g
const NUMBER = /\b\d+\b/g
const WHITESPACE = /\s+/g
/** The domain half of the reference's email pattern `[a-z0-9._%+\-]+@[a-z0-9.\-]+\.[a-z]{2,}` (case-insensitive). */
const EMAIL_DOMAIN = /[a-z0-9.-]+\.[a-z]{2,}/iy

/**
 * Normalises text for grouping (§2.4): UUID → `{uuid}`, `YYYY-MM-DD[ T]HH:MM:SS…` → `{time}`, IPv4 → `{ip}`,
 * email → `{email}`, `/releases/<x>/` → `/releases/{release}/`, `:<digits>` → `:{line}`, standalone number →
 * `{n}`; then lower-case, trim and collapse whitespace.
 * @example normalize('Order 123 failed for a@b.test') // 'order {n} failed for {email}'
 */
export function normalize(value: string): string {
  let text = value
  if (text.length >= 36) text = text.replace(UUID, '{uuid}')
  text = text.replace(DATETIME, '{time}').replace(IPV4, '{ip}')
  text = replaceEmails(text)
  if (text.includes('/releases/')) text = text.replace(RELEASE, '/releases/{release}/')
  text = text.replace(LINE, ':{line}').replace(NUMBER, '{n}')
  return text.toLowerCase().trim().replace(WHITESPACE, ' ')
}

/**
 * The email rule without the regex. As a plain global regex it is quadratic: at every start inside a long run
 * of local-part characters without `@` it scans to the run's end (a 1 MB token in a stack would take minutes).
 * Walking from each `@` gives the same leftmost, non-overlapping matches: the local part is the run of
 * local-part characters just before `@` (not reaching back into the previous match), the domain the regex's.
 */
function replaceEmails(text: string): string {
  let at = text.indexOf('@')
  if (at === -1) return text
  let out = ''
  let last = 0
  while (at !== -1) {
    let start = at
    while (start > last && isLocalPart(text.charCodeAt(start - 1))) start--
    if (start < at) {
      EMAIL_DOMAIN.lastIndex = at + 1
      const domain = EMAIL_DOMAIN.exec(text)
      if (domain !== null) {
        out += `${text.slice(last, start)}{email}`
        last = at + 1 + domain[0].length
        at = text.indexOf('@', last)
        continue
      }
    }
    at = text.indexOf('@', at + 1)
  }
  return out + text.slice(last)
}

/** `[a-z0-9._%+\-]` with the `i` flag. */
function isLocalPart(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) ||
    code === 0x2e || code === 0x5f || code === 0x25 || code === 0x2b || code === 0x2d
  )
}
