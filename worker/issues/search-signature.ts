import { Fragment, join, raw, sql } from '../../drivers/sql.ts'

/**
 * The trigram signature of an issue's searched text (migration 0021 on SQLite, 0023 on MySQL): which of 260 bits its trigrams
 * set, kept as five integer words of 52 bits each (`w0` … `w4` of `search_signatures`: every word an exact
 * JavaScript number, SQLite integer and MySQL BIGINT). A `q` needle's own trigrams give a mask, and only issues whose
 * signature holds every bit of it can contain the needle: the search scans the narrow signature rows and tests
 * the text of those issues alone, instead of reading every issue (issue 18; docs/performance.md "Search:
 * trigram signatures").
 *
 * It is a pre-filter, never the test: the exact substring test (`containsCi`) still decides, so a signature may
 * claim too much but must never claim too little. -1 (every bit set) claims everything: the migration's triggers
 * store it for a new issue and for one whose text changed, until its writer stores the real signature.
 *
 * Folding. `containsCi` on SQLite is `instr(lower(text), lower(needle))`, and SQLite's `lower()` folds ASCII
 * only (asserted per engine in test/worker/issues/search-signature.test.ts): two characters are equal under it
 * only when both are ASCII with the same lower case, or identical. `fold` maps every ASCII character to its
 * lower case and every other character to one class (128), so equal characters always fold equal, and a needle
 * found in a text has each of its trigrams among the text's. The two characters whose Unicode lower case is
 * ASCII (KELVIN SIGN → k, LATIN CAPITAL I WITH DOT ABOVE → i) fold to that letter, which keeps the guarantee
 * under a Unicode `lower()` with one-to-one mappings too: MySQL's `LOWER()` (`containsCi` there compares the
 * lowered strings' bytes), which the suite checks over every code point, maps each to one character and to
 * ASCII only from ASCII and those two.
 */

const SIGNATURE_WORDS = 5
const WORD_BITS = 52
const TRIGRAM_BITS = SIGNATURE_WORDS * WORD_BITS

/** The words' columns in `search_signatures`, in order. */
export const SIGNATURE_COLUMNS: readonly string[] = Array.from({ length: SIGNATURE_WORDS }, (_, word) => `w${word}`)

/** The words' columns in an issue row, where the dialect keeps them there (`searchSignature: 'issue-columns'`). */
export const ISSUE_SIGNATURE_COLUMNS: readonly string[] = SIGNATURE_COLUMNS.map((column) => `signature_${column}`)

/** The searched columns of an issue row (`q`'s own columns; module names and file paths are matched apart). */
export interface SearchedText {
  readonly title: string | null
  readonly message: string | null
  readonly exceptionClass: string | null
  readonly sourceFrame: string | null
}

const KELVIN_SIGN = 0x212a
const CAPITAL_I_WITH_DOT = 0x130

/** ASCII folded to its lower case: SQLite's `lower()`. */
const ASCII_FOLD = Uint8Array.from({ length: 128 }, (_, code) => (code >= 65 && code <= 90 ? code + 32 : code))

function fold(unit: number): number {
  if (unit < 128) return ASCII_FOLD[unit]!
  if (unit === KELVIN_SIGN) return 107
  if (unit === CAPITAL_I_WITH_DOT) return 105
  return 128
}

/**
 * Sets the bits of one text's trigrams in `bits` (one byte per bit). Characters are code points, as SQLite's
 * `instr` counts them: a surrogate pair is one (folded to 128, as a lone surrogate is). A trigram's bit is the
 * top bits of a multiplicative hash of its three folded characters (each 0…128), scaled to `TRIGRAM_BITS`.
 * Runs for every sample row an import writes: a table lookup per ASCII character, no allocation.
 */
function addTrigrams(text: string, bits: Uint8Array): void {
  let first = -1
  let second = -1
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1)
      if (next >= 0xdc00 && next <= 0xdfff) index++
    }
    const third = fold(unit)
    if (first >= 0) bits[Math.floor(((Math.imul((first * 129 + second) * 129 + third, 0x9e3779b1) >>> 0) * TRIGRAM_BITS) / 4294967296)] = 1
    first = second
    second = third
  }
}

/** 2^0 … 2^51: a word's bit values (a variable exponent would be a Math.pow per set bit). */
const BIT_VALUES = Array.from({ length: WORD_BITS }, (_, bit) => 2 ** bit)

function toWords(bits: Uint8Array): number[] {
  const words: number[] = []
  for (let word = 0, bit = 0; word < SIGNATURE_WORDS; word++) {
    let value = 0
    for (let offset = 0; offset < WORD_BITS && bit < TRIGRAM_BITS; offset++, bit++) if (bits[bit]) value += BIT_VALUES[offset]!
    words.push(value)
  }
  return words
}

/** The signature of an issue's searched text: the union of each column's trigrams (none spans two columns). */
export function textSignature(text: SearchedText): number[] {
  const bits = new Uint8Array(TRIGRAM_BITS)
  for (const value of [text.title, text.message, text.exceptionClass, text.sourceFrame]) {
    if (value) addTrigrams(value, bits)
  }
  return toWords(bits)
}

/**
 * The mask of a needle, or null when it has no trigram (under three characters): such a needle cannot narrow
 * the search, which then tests every issue.
 */
export function needleMask(needle: string): number[] | null {
  const bits = new Uint8Array(TRIGRAM_BITS)
  addTrigrams(needle, bits)
  return bits.includes(1) ? toWords(bits) : null
}

/**
 * The ids of the issues whose signature holds every bit of `mask`: a scan of the narrow signature rows, one
 * `(~word & mask) = 0` per word the mask uses. Unknown rows (-1) always pass.
 */
export function signatureCandidates(table: string, alias: string, mask: readonly number[]): Fragment {
  const tests = mask.flatMap((word, index) => (word === 0 ? [] : [new Fragment(`(~${alias}.${SIGNATURE_COLUMNS[index]} & ?) = 0`, [word])]))
  return sql`SELECT ${raw(`${alias}.id FROM ${table} ${alias}`)} WHERE ${join(tests, ' AND ')}`
}

/** The signature as JSON fields `s0` … `s4`, as the writers' row sources read them (`signatureFieldTypes`). */
export function signatureFields(words: readonly number[]): Record<string, number> {
  return Object.fromEntries(words.map((word, index) => [`s${index}`, word]))
}

/** `jsonRecords` column types of `signatureFields`. */
export const signatureFieldTypes: Readonly<Record<string, 'integer'>> = Object.fromEntries(SIGNATURE_COLUMNS.map((_, word) => [`s${word}`, 'integer']))

/** `<alias>.s0, …, <alias>.s4`: a row source's signature fields, to select. */
export function signatureFieldList(alias: string): string {
  return SIGNATURE_COLUMNS.map((_, word) => `${alias}.s${word}`).join(', ')
}

/** `w0 = <alias>.s0, …`: the assignments that store a row source's signature fields. */
export function signatureAssignments(alias: string): Record<string, string> {
  return Object.fromEntries(SIGNATURE_COLUMNS.map((column, word) => [column, `${alias}.s${word}`]))
}
