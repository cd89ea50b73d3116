/**
 * UTF-8 byte arithmetic on decoded strings, used for the capture limit (reference §2.2: bodies are capped at
 * 4 MiB of bytes, not characters). Lone surrogates count 3 bytes, as TextEncoder writes them as U+FFFD.
 */

const NON_ASCII = /[^\u0000-\u007f]/

/** Strings up to this many UTF-16 units are measured by encoding them into a reused scratch buffer. */
const ENCODE_MAX_UNITS = 1 << 18
const encoder = new TextEncoder()
let scratch = new Uint8Array(0)

/** Number of bytes `text` occupies in UTF-8. */
export function utf8Length(text: string): number {
  if (text.length <= ENCODE_MAX_UNITS) {
    // Every import measures each occurrence row: the native encoder into a reused buffer (3 bytes per unit at
    // most, so it never runs out) measured 4× faster than the regex scan below on ASCII rows (docs/ingestion.md).
    if (scratch.length < text.length * 3) scratch = new Uint8Array(Math.max(text.length * 3, 4096))
    return encoder.encodeInto(text, scratch).written
  }
  // Long texts (a capped 4 MiB body): no buffer that large is kept. The regex scans natively (and flattens a
  // concatenated string once); the loop, run on a string built by concatenation, measured several times slower
  // per character than on a flat one.
  if (!NON_ASCII.test(text)) return text.length
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) bytes += 1
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 2 // the pair is 2 units and 4 bytes
      i++
    } else bytes += 2
  }
  return bytes
}

/** The longest prefix of `text` that fits in `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (text.length <= maxBytes && text.length * 3 <= maxBytes) return text
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    let size = code < 0x80 ? 1 : code < 0x800 ? 2 : 3
    let units = 1
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      size = 4
      units = 2
    }
    if (bytes + size > maxBytes) return text.slice(0, i)
    bytes += size
    i += units - 1
  }
  return text
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}
