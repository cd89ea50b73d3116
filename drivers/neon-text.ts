/**
 * Text as PostgreSQL can store it. PostgreSQL `text` and `jsonb` cannot hold U+0000 ("invalid byte sequence
 * for encoding UTF8: 0x00", "unsupported Unicode escape sequence"), yet log lines do contain NUL bytes (a
 * dumped JPEG in a Laravel log) and every driver must store and return what the parsers produce (issue 10).
 * So the neon driver escapes, transparently and bijectively, with the private-use character E = U+E000:
 * NUL → E0 and E → E1 in every string argument, inside the strings of every JSON parameter (`?::jsonb`,
 * where JSON.stringify writes NUL as the six characters `\u0000`), and back in every result value, JSON
 * included. Text without NUL or E — nearly all text — is passed through untouched, so comparisons and
 * substring searches work on escaped text unchanged.
 */

const E = '\ue000'
const RAW = /[\u0000\ue000]/g
const ESCAPED = /\ue000([01])/g
/** A JSON backslash escape (so `\\u0000`, an escaped backslash and "u0000", is left alone), or a literal E. */
const JSON_TOKEN = /\\(?:u[0-9a-fA-F]{4}|[^u])|\ue000/g

/** A string argument as stored. */
export function encodeText(text: string): string {
  return text.includes('\u0000') || text.includes(E) ? text.replace(RAW, (c) => (c === E ? `${E}1` : `${E}0`)) : text
}

/** A stored string as it was written. A lone E (not written by this driver) is left as it is. */
export function decodeText(text: string): string {
  return text.includes(E) ? text.replace(ESCAPED, (_match, digit: string) => (digit === '0' ? '\u0000' : E)) : text
}

/** JSON text whose string values are escaped as {@link encodeText} does; still valid JSON. */
export function encodeJsonText(json: string): string {
  if (!json.includes(E) && !/\\u(?:0000|[eE]000)/.test(json)) return json
  return json.replace(JSON_TOKEN, (token) => {
    if (token === E) return `${E}1`
    const code = token.length === 6 ? token.slice(2).toLowerCase() : ''
    return code === '0000' ? `${E}0` : code === 'e000' ? `${E}1` : token
  })
}

/** Decodes every string in a result value: strings, and JSON values parsed into arrays and plain objects. */
export function decodeValue(value: unknown): unknown {
  if (typeof value === 'string') return decodeText(value)
  if (Array.isArray(value)) return value.map(decodeValue)
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [decodeText(key), decodeValue(inner)]))
  }
  return value
}

/** Parameter numbers (1-based) that the SQL reads as JSON: `$n::json` or `$n::jsonb` (dialect.jsonRecords). */
export function jsonParameters(compiledSql: string): ReadonlySet<number> {
  const numbers = new Set<number>()
  for (const match of compiledSql.matchAll(/\$(\d+)::jsonb?(?![A-Za-z0-9_])/g)) numbers.add(Number(match[1]))
  return numbers
}
