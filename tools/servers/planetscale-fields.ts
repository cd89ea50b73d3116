/**
 * Result shaping for the local PlanetScale HTTP API server (see planetscale-server.ts): MySQL column
 * definitions → Vitess `query.Field`, raw row bytes → `query.Row`, MySQL errors → `vtrpc.RPCError`, all in
 * protojson form (docs: /work/shared/spec/wire-protocols.md §1.3, §5c). The oracle is what the real client
 * decodes (`@planetscale/database` dist/index.js `decodeRow`, dist/cast.js) and the golden response in
 * `planetscale/database-js` golden/database.json.
 */
import type { FieldPacket, ResultSetHeader } from 'mysql2/promise'

/** A Vitess `query.Field` as protojson writes it: zero values are omitted. */
export interface PsField {
  readonly name?: string
  /** Vitess type name; absent for NULL_TYPE (enum value 0), and the client backfills `'NULL'`. */
  readonly type?: string
  readonly table?: string
  readonly orgTable?: string
  readonly database?: string
  readonly orgName?: string
  readonly columnLength?: number
  readonly charset?: number
  readonly decimals?: number
  readonly flags?: number
}

/** A Vitess `query.Row`: byte lengths as decimal strings (`-1` = NULL) and the non-null bytes, base64. */
export interface PsRow {
  readonly lengths: readonly string[]
  readonly values?: string
}

/** A Vitess `query.QueryResult`; DDL and other statements without rows or counts give `{}`. */
export interface PsResult {
  readonly fields?: readonly PsField[]
  readonly rows?: readonly PsRow[]
  readonly rowsAffected?: string
  readonly insertId?: string
}

/** A `vtrpc.RPCError`: the body of `error` in an Execute reply (an SQL error is still HTTP 200). */
export interface PsError {
  readonly code: string
  readonly message: string
}

/** The binary character set / collation id; the client returns `Uint8Array` for fields with this charset. */
const BINARY_CHARSET = 63

// MySQL column flags (include/mysql_com.h) that Vitess folds into the type.
const UNSIGNED_FLAG = 32
const BINARY_FLAG = 128
const ENUM_FLAG = 256
const SET_FLAG = 2048

/** MySQL wire column type → Vitess type, as in vitess `go/sqltypes/type.go` `mysqlToType`. */
const MYSQL_TO_VITESS: Readonly<Record<number, string>> = {
  0: 'DECIMAL', 1: 'INT8', 2: 'INT16', 3: 'INT32', 4: 'FLOAT32', 5: 'FLOAT64', 6: 'NULL', 7: 'TIMESTAMP',
  8: 'INT64', 9: 'INT24', 10: 'DATE', 11: 'TIME', 12: 'DATETIME', 13: 'YEAR', 15: 'VARCHAR', 16: 'BIT',
  17: 'TIMESTAMP', 18: 'DATETIME', 19: 'TIME', 245: 'JSON', 246: 'DECIMAL', 247: 'ENUM', 248: 'SET',
  249: 'TEXT', 250: 'TEXT', 251: 'TEXT', 252: 'TEXT', 253: 'VARCHAR', 254: 'CHAR', 255: 'GEOMETRY',
}

/**
 * The Vitess type name for a MySQL column type and its flags (`MySQLToType` + `modifyType`). Note that
 * Vitess keys text vs binary on the BINARY flag, not the charset: a `utf8mb4_bin` VARCHAR is `VARBINARY`
 * with a utf8mb4 charset, which the client still decodes as a string (it checks `charset === 63`).
 */
export function vitessType(columnType: number, flags: number): string {
  const base = MYSQL_TO_VITESS[columnType]
  if (base === undefined) throw new Error(`could not map MySQL type ${columnType} to a Vitess type`)
  const unsigned = (flags & UNSIGNED_FLAG) !== 0
  const binary = (flags & BINARY_FLAG) !== 0
  switch (base) {
    case 'INT8': case 'INT16': case 'INT24': case 'INT32': case 'INT64':
      return unsigned ? `U${base}` : base
    case 'TEXT':
      return binary ? 'BLOB' : base
    case 'VARCHAR':
      return binary ? 'VARBINARY' : base
    case 'CHAR':
      if (binary) return 'BINARY'
      if ((flags & ENUM_FLAG) !== 0) return 'ENUM'
      if ((flags & SET_FLAG) !== 0) return 'SET'
      return base
    default:
      return base
  }
}

/** Drops protojson zero values ('' and 0) so the output matches what vtgate sends. */
function omitZero<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== '' && v !== 0 && v !== undefined)) as T
}

/**
 * Maps a mysql2 column definition to a Vitess field. MariaDB has no JSON wire type: it sends JSON columns
 * (and JSON function results) as text with the extended-metadata format `json`; we report those as MySQL 8
 * (and so PlanetScale) does, `JSON` with the binary charset, so the client `JSON.parse`s them as in production.
 */
export function toPsField(def: FieldPacket): PsField {
  const flags = typeof def.flags === 'number' ? def.flags : 0
  const columnType = def.columnType ?? def.type ?? 6
  const json = def.extendedFormat === 'json'
  const type = json ? 'JSON' : vitessType(columnType, flags)
  return omitZero({
    name: def.name,
    type: type === 'NULL' ? undefined : type,
    table: def.table,
    orgTable: def.orgTable,
    database: def.schema ?? def.db ?? '',
    orgName: def.orgName,
    columnLength: def.columnLength ?? def.length ?? 0,
    charset: json ? BINARY_CHARSET : (def.characterSet ?? def.charsetNr ?? 0),
    decimals: def.decimals,
    flags: json ? flags | BINARY_FLAG : flags,
  })
}

/**
 * Packs one row of raw column bytes (from a `typeCast` returning `field.buffer()`) the way `decodeRow` in the
 * client unpacks it: `atob(values)` sliced by `lengths`. Lengths count bytes, since `atob` yields one char per byte.
 */
export function packRow(values: readonly (Buffer | null)[]): PsRow {
  const present = values.filter((v): v is Buffer => v !== null)
  const bytes = Buffer.concat(present)
  const lengths = values.map((v) => (v === null ? '-1' : String(v.byteLength)))
  return bytes.byteLength === 0 ? { lengths } : { lengths, values: bytes.toString('base64') }
}

/** Builds the `result` for a statement that returned a result set (`rows`/`fields` omitted when empty). */
export function rowsResult(defs: readonly FieldPacket[], rows: readonly (readonly (Buffer | null)[])[]): PsResult {
  const fields = defs.map(toPsField)
  return omitEmpty({ fields, rows: rows.map(packRow) })
}

/**
 * Builds the `result` for an OK packet. uint64 fields are strings in protojson and omitted when 0; mysql2
 * reads insert ids as signed, so ids above 2^63 are converted back to unsigned.
 */
export function okResult(header: ResultSetHeader): PsResult {
  const insertId = BigInt.asUintN(64, BigInt(header.insertId))
  return omitEmpty({
    rowsAffected: header.affectedRows ? String(header.affectedRows) : undefined,
    insertId: insertId ? insertId.toString() : undefined,
  })
}

function omitEmpty(result: Record<string, readonly unknown[] | string | undefined>): PsResult {
  return Object.fromEntries(
    Object.entries(result).filter(([, v]) => v !== undefined && (typeof v === 'string' || v.length > 0)),
  ) as PsResult
}

/**
 * MySQL errno → vtrpc code name and its gRPC spelling, following vttablet's `convertErrorCode`
 * (vitess go/vt/vttablet/tabletserver); everything else is UNKNOWN.
 */
const ERRNO_CODES: ReadonlyArray<readonly [code: string, grpc: string, errnos: readonly number[]]> = [
  ['ALREADY_EXISTS', 'AlreadyExists', [1022, 1050, 1062, 1125, 1586]],
  ['NOT_FOUND', 'NotFound', [1032, 1051, 1054, 1146, 1176]],
  ['INVALID_ARGUMENT', 'InvalidArgument', [1048, 1049, 1064, 1149, 1264, 1366, 1406]],
  ['FAILED_PRECONDITION', 'FailedPrecondition', [1169, 1216, 1217, 1364, 1451, 1452]],
  ['PERMISSION_DENIED', 'PermissionDenied', [1044, 1045, 1142, 1143]],
  ['ABORTED', 'Aborted', [1213]],
  ['DEADLINE_EXCEEDED', 'DeadlineExceeded', [1205]],
  ['RESOURCE_EXHAUSTED', 'ResourceExhausted', [1040, 1041, 1114]],
]

/** The parts of a mysql2 query error used to build an RPC error. */
export interface MysqlErrorInfo {
  readonly errno: number
  readonly sqlState: string
  readonly sqlMessage: string
}

/**
 * Formats an SQL error the way PlanetScale reports it (vtgate wrapping vttablet wrapping `SQLError.Error()`,
 * which appends `(errno N) (sqlstate S)` so it can be parsed back). Drivers map errors by parsing `(errno N)`.
 */
export function sqlError(error: MysqlErrorInfo, context: { database: string; user: string; query: string }): PsError {
  const [code, grpc] = ERRNO_CODES.find(([, , errnos]) => errnos.includes(error.errno)) ?? ['UNKNOWN', 'Unknown']
  const sql = context.query.length > 256 ? `${context.query.slice(0, 256)} [TRUNCATED]` : context.query
  const message =
    `target: ${context.database}.-.primary: vttablet: rpc error: code = ${grpc} desc = ${error.sqlMessage} ` +
    `(errno ${error.errno}) (sqlstate ${error.sqlState}) (CallerID: ${context.user}): ` +
    `Sql: ${JSON.stringify(sql)}, BindVars: {REDACTED}`
  return { code, message }
}
