/**
 * Replacements of reference-behaviour.md §2.4, in this order: the specific patterns must run before the
 * generic number rule, or every digit becomes `{n}` and the later patterns never match.
 */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\b/gi
const DATETIME = /\b\d{4}-\d\d-\d\d[ tT]\d\d:\d\d:\d\d\S*/g
const IPV4 = /\b(?:\d{1,3}\.){3}\d{1,3}\b/g
const RELEASE = /\/releases\/[^/\s]+\//g
/** `req_8fK2xQ…`, `cus_NffrFeUfNV2Hib`, `sk_live_51H…`: a short lower-case prefix, `_`, ≥ 10 random characters. */
const PREFIXED_ID = /\b([a-z]{2,12}(?:_[a-z]{2,12})?)_([A-Za-z0-9]{10,})\b/g
/** `2497ms`, `1.5s`, `300µs`, `12.3 ms`, `2m`: a number with a time unit. */
const DURATION = /\b\d+(?:\.\d+)?\s?(?:ns|[µμu]s|ms|s|secs?|seconds?|min|mins|minutes?|m|h|hrs?|hours?)(?![A-Za-z0-9_µμ])/g
const HEX_ONLY = /^(?:0[xX])?[0-9a-fA-F]+$/
const DIGIT = /\d/
const LETTER = /[A-Za-z]/
const LINE = /:\d+\b/g
const NUMBER = /\b\d+\b/g
const WHITESPACE = /\s+/g
/** The domain half of the reference's email pattern `[a-z0-9._%+\-]+@[a-z0-9.\-]+\.[a-z]{2,}` (case-insensitive). */
const EMAIL_DOMAIN = /[a-z0-9.-]+\.[a-z]{2,}/iy

/**
 * Normalises text for grouping (§2.4): UUID → `{uuid}`, `YYYY-MM-DD[ T]HH:MM:SS…` → `{time}`, IPv4 → `{ip}`,
 * email → `{email}`, `/releases/<x>/` → `/releases/{release}/`, then (ours, not the reference's) prefixed random
 * ids `req_8fK2xQ…` → `req_{id}`, hex ids → `{hex}`, random base64-ish tokens → `{token}`, durations
 * `2497ms`/`1.5s`/`300µs` → `{duration}`; then `:<digits>` → `:{line}`, standalone number → `{n}`; then
 * lower-case, trim and collapse whitespace.
 *
 * The added rules only rewrite text that holds such a token, so every other fingerprint stays what it was
 * (pinned by test/worker/digest/grouping/golden-fingerprints.test.ts); a `reindex` re-groups stored events with them.
 * @example normalize('Order 123 failed for a@b.test') // 'order {n} failed for {email}'
 * @example normalize('Your card was declined (req_8fK2xQ0aLm3Z)') // 'your card was declined (req_{id})'
 */
export function normalize(value: string): string {
  let text = value
  if (text.length >= 36) text = text.replace(UUID, '{uuid}')
  text = text.replace(DATETIME, '{time}').replace(IPV4, '{ip}')
  text = replaceEmails(text)
  if (text.includes('/releases/')) text = text.replace(RELEASE, '/releases/{release}/')
  // Every added rule needs a digit in its token: text without one is spared the scans (and unchanged).
  if (DIGIT.test(text)) {
    if (text.includes('_')) text = text.replace(PREFIXED_ID, (match, prefix: string, id: string) => (isMixed(id) ? `${prefix}_{id}` : match))
    if (text.length >= 8) text = replaceIds(text)
    text = text.replace(DURATION, '{duration}')
  }
  text = text.replace(LINE, ':{line}').replace(NUMBER, '{n}')
  return text.toLowerCase().trim().replace(WHITESPACE, ' ')
}

/** An id part has both digits and letters (a snake_case word such as `user_registration` has none). */
function isMixed(id: string): boolean {
  return DIGIT.test(id) && LETTER.test(id)
}

/**
 * Hex ids → `{hex}`, random tokens → `{token}`, in one pass over the text (a scanner: the regexes for the two,
 * tried at every position, cost several times the rest of `normalize`). A run of base64/base64url characters
 * (`A–Z a–z 0–9 + _ -`, then up to two `=`) of 20 or more that reads as random is a token; otherwise each of its
 * word parts (split at `+` and `-`, as `\b` splits) that is a hex id becomes `{hex}`.
 */
function replaceIds(text: string): string {
  let out = ''
  let last = 0
  const n = text.length
  for (let i = 0; i < n; ) {
    if (!isRunChar(text.charCodeAt(i))) {
      i++
      continue
    }
    const start = i
    while (i < n && isRunChar(text.charCodeAt(i))) i++
    const end = i
    if (end - start < 8) continue
    if (end - start >= 20) {
      let padded = end
      while (padded < n && padded - end < 2 && text.charCodeAt(padded) === 0x3d) padded++
      if (isRandomToken(text.slice(start, end))) {
        out += `${text.slice(last, start)}{token}`
        last = i = padded
        continue
      }
    }
    for (let part = start; part < end; ) {
      let stop = part
      while (stop < end && text.charCodeAt(stop) !== 0x2b && text.charCodeAt(stop) !== 0x2d) stop++
      if (stop - part >= 8 && isHexId(text.slice(part, stop))) {
        out += `${text.slice(last, part)}{hex}`
        last = stop
      }
      part = stop + 1
    }
  }
  return last === 0 ? text : out + text.slice(last)
}

/** `A–Z a–z 0–9 + _ -`. */
function isRunChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d || code === 0x2b
}

/**
 * ≥ 8 hex digits with a digit and a letter among them (`a1b2c3d4`, a commit, a compiled view's hash). An
 * all-digit run stays a number (`{n}`, as before); an all-letter one is a word (`deadbeef`, `facade`) — a
 * random id of 16 hex digits without any digit among them is a one-in-six-million case.
 */
function isHexId(word: string): boolean {
  if (!HEX_ONLY.test(word)) return false
  const hex = word.charCodeAt(1) === 0x78 || word.charCodeAt(1) === 0x58 ? word.slice(2) : word
  return hex.length >= 8 && DIGIT.test(hex) && LETTER.test(hex)
}

/**
 * A session id, API key or JWT segment: ≥ 20 characters with digits, upper- and lower-case letters, changing
 * class (digit/upper/lower/other) at least every third character on average. Identifiers with digits
 * (`getUser2FactorAuthenticationCode`) change class a few times per word and are kept.
 */
function isRandomToken(run: string): boolean {
  let upper = 0
  let lower = 0
  let digits = 0
  let changes = 0
  let previous = -1
  for (let i = 0; i < run.length; i++) {
    const code = run.charCodeAt(i)
    const kind = code >= 0x30 && code <= 0x39 ? 0 : code >= 0x41 && code <= 0x5a ? 1 : code >= 0x61 && code <= 0x7a ? 2 : 3
    if (kind === 0) digits++
    else if (kind === 1) upper++
    else if (kind === 2) lower++
    if (previous !== -1 && kind !== previous) changes++
    previous = kind
  }
  return digits > 0 && upper > 0 && lower > 0 && changes * 3 >= run.length
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
