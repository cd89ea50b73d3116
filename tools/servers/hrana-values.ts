/**
 * Hrana values and errors as JSON, for the local Hrana-over-HTTP server (hrana-server.ts).
 *
 * Values follow the Hrana spec ("Values", `tursodatabase/libsql` `docs/HRANA_3_SPEC.md`) the way libSQL's
 * server (sqld) serialises them in `libsql-server/src/hrana/proto.rs`: integers as decimal strings that must
 * fit an i64, floats as JSON numbers, blobs as base64 *without* padding (padding is tolerated on input).
 */

/** A Hrana `Value` on the wire. */
export type HranaValue =
  | { readonly type: 'null' }
  | { readonly type: 'integer'; readonly value: string }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'blob'; readonly base64: string }

/** What the `libsql` package binds and, with safe integers on, returns. */
export type SqliteValue = null | bigint | number | string | Uint8Array

/** Hrana's `Error` object: `code` is a machine-readable string such as `SQLITE_CONSTRAINT`. */
export interface HranaError {
  readonly message: string
  readonly code: string
}

/**
 * A request the server cannot make sense of: sqld's `ProtocolError`, answered with HTTP 400 and a text body
 * for the whole pipeline (`libsql-server/src/hrana/http/mod.rs`, `protocol_error_response`).
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError'
}

/**
 * A statement that failed: sqld's `StmtError`, answered in-band as `{"type":"error"}` for that request (or in
 * `step_errors` inside a batch) while the pipeline itself succeeds.
 */
export class StmtError extends Error {
  override readonly name = 'StmtError'
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message)
  }

  /** The Hrana `Error` object. */
  toHrana(): HranaError {
    return { message: this.message, code: this.code }
  }
}

const I64_MIN = -(2n ** 63n)
const I64_MAX = 2n ** 63n - 1n

/** Decodes a Hrana value for binding; anything sqld's serde would reject is a {@link ProtocolError}. */
export function valueFromHrana(json: unknown): SqliteValue {
  const value = expectObject(json, 'value')
  switch (value['type']) {
    case 'null':
      return null
    case 'integer': {
      // sqld's `i64_as_str`: a string holding a decimal i64; JSON numbers are refused.
      const text = value['value']
      if (typeof text !== 'string' || !/^[+-]?\d+$/.test(text)) throw new ProtocolError('integer value must be a decimal string')
      const integer = BigInt(text)
      if (integer < I64_MIN || integer > I64_MAX) throw new ProtocolError(`integer value ${text} does not fit in 64 bits`)
      return integer
    }
    case 'float': {
      const number = value['value']
      if (typeof number !== 'number') throw new ProtocolError('float value must be a JSON number')
      return number
    }
    case 'text': {
      const text = value['value']
      if (typeof text !== 'string') throw new ProtocolError('text value must be a string')
      return text
    }
    case 'blob': {
      const base64 = value['base64']
      const bare = typeof base64 === 'string' ? base64.replace(/=+$/, '') : undefined
      if (bare === undefined || !/^[A-Za-z0-9+/]*$/.test(bare) || bare.length % 4 === 1) {
        throw new ProtocolError('blob value must be base64')
      }
      return Buffer.from(bare, 'base64')
    }
    default:
      throw new ProtocolError(`unknown value type ${JSON.stringify(value['type'])}`)
  }
}

/** Encodes a value read from SQLite (safe integers on, so every INTEGER arrives as a bigint). */
export function valueToHrana(value: unknown): HranaValue {
  if (value === null || value === undefined) return { type: 'null' }
  if (typeof value === 'bigint') return { type: 'integer', value: value.toString() }
  // ±Infinity becomes JSON null, as with sqld's serde_json, and the client then rejects it: faithful.
  if (typeof value === 'number') return { type: 'float', value }
  if (typeof value === 'string') return { type: 'text', value }
  if (value instanceof Uint8Array) return { type: 'blob', base64: Buffer.from(value).toString('base64').replace(/=+$/, '') }
  throw new TypeError(`unexpected SQLite value ${String(value)}`)
}

/** SQLite's primary result codes that rusqlite names; sqld reports every other one (even SQLITE_ERROR) as SQLITE_UNKNOWN. */
const RUSQLITE_CODES = new Set(
  'INTERNAL PERM ABORT BUSY LOCKED NOMEM READONLY INTERRUPT IOERR CORRUPT NOTFOUND FULL CANTOPEN PROTOCOL SCHEMA TOOBIG CONSTRAINT MISMATCH MISUSE NOLFS AUTH RANGE NOTADB'
    .split(' ')
    .map((name) => `SQLITE_${name}`),
)

/**
 * Translates an error thrown by the `libsql` package into sqld's `StmtError`: the *primary* result code
 * through rusqlite's `ErrorCode` (`libsql-server/src/hrana/stmt.rs`, `sqlite_error_code`) and the message
 * `SQLite error: …`. Syntax errors become `SQL_PARSE_ERROR`, because sqld parses SQL itself before SQLite
 * sees it. Anything that is not an SQLite error is rethrown.
 */
export function stmtErrorFromSqlite(error: unknown): StmtError {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string' || !error.code.startsWith('SQLITE_')) {
    throw error
  }
  if (isSyntaxError(error)) return new StmtError(`SQL string could not be parsed: ${error.message}`, 'SQL_PARSE_ERROR')
  const primary = error.code.split('_').slice(0, 2).join('_')
  return new StmtError(`SQLite error: ${error.message}`, RUSQLITE_CODES.has(primary) ? primary : 'SQLITE_UNKNOWN')
}

/** An SQLite error from its tokenizer or parser, which sqld's own parser would have caught first. */
export function isSyntaxError(error: unknown): boolean {
  return error instanceof Error && /syntax error|unrecognized token|incomplete input/.test(error.message)
}

/** The value as a JSON object, or a {@link ProtocolError} naming `what`. */
export function expectObject(json: unknown, what: string): Record<string, unknown> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ProtocolError(`${what} must be a JSON object`)
  return json as Record<string, unknown>
}

/** The value as a JSON array (absent counts as empty, as sqld's `#[serde(default)]`), or a {@link ProtocolError}. */
export function expectArray(json: unknown, what: string): readonly unknown[] {
  if (json === undefined) return []
  if (!Array.isArray(json)) throw new ProtocolError(`${what} must be a JSON array`)
  return json
}
