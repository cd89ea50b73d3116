/**
 * Pure helpers for the local Neon "SQL over HTTP" server (see neon-server.ts): request parsing, parameter
 * encoding, result shaping and error bodies. Each mirrors the real proxy, `neondatabase/neon`
 * `proxy/src/serverless/sql_over_http.rs` and `json.rs` (docs: /work/shared/spec/wire-protocols.md §1.2, §5b).
 */
import type { FieldDef } from 'pg'

/** One statement of a request body; `arrayMode` overrides the `Neon-Array-Mode` header for it. */
export interface QueryData {
  readonly query: string
  readonly params: readonly (string | null)[]
  readonly arrayMode?: boolean
}

/** A parsed request body: one statement, or a batch that runs in one transaction. */
export type Payload = { readonly kind: 'single'; readonly query: QueryData } | { readonly kind: 'batch'; readonly queries: readonly QueryData[] }

/** The result object the proxy writes for each statement (key order as in `query_to_json`). */
export interface NeonResult {
  readonly rowAsArray: boolean
  readonly fields: readonly NeonField[]
  readonly rows: readonly (readonly unknown[] | Readonly<Record<string, unknown>>)[]
  readonly command: string
  readonly rowCount: number | null
}

/** Column metadata as written by `write_fields`. */
export interface NeonField {
  readonly name: string
  readonly dataTypeID: number
  readonly tableID: number
  readonly columnID: number
  readonly dataTypeSize: number
  readonly dataTypeModifier: number
  readonly format: 'text'
}

/** Maps an array type's OID to its element OID, or 0 when the type is not an array. */
export type ArrayElementLookup = (oid: number) => Promise<number>

/** Error keys the driver copies into `NeonDbError` (its `hi` list; the proxy's error `json!`). */
const ERROR_KEYS = [
  'code', 'detail', 'hint', 'position', 'internalPosition', 'internalQuery', 'severity', 'where', 'table',
  'column', 'schema', 'dataType', 'constraint', 'file', 'line', 'routine',
] as const

/** Thrown for a body the proxy's serde `Payload` (untagged Single | Batch) would reject. */
export class PayloadError extends Error {}

/**
 * Parses a request body. Like serde's untagged enum, a body with a string `query` is a single statement,
 * otherwise it must carry a `queries` array; `params` defaults to `[]`.
 */
export function parsePayload(body: string): Payload {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch (error) {
    throw new PayloadError(`request body is not valid JSON: ${(error as Error).message}`)
  }
  if (isObject(json) && typeof json['query'] === 'string') return { kind: 'single', query: parseQuery(json) }
  if (isObject(json) && Array.isArray(json['queries'])) {
    return { kind: 'batch', queries: json['queries'].map((q) => parseQuery(q)) }
  }
  throw new PayloadError('request body must be {"query","params"} or {"queries":[…]}')
}

function parseQuery(value: unknown): QueryData {
  if (!isObject(value) || typeof value['query'] !== 'string') throw new PayloadError('each query needs a "query" string')
  const params = value['params'] ?? []
  if (!Array.isArray(params)) throw new PayloadError('"params" must be an array')
  const arrayMode = value['arrayMode']
  if (arrayMode !== undefined && arrayMode !== null && typeof arrayMode !== 'boolean') throw new PayloadError('"arrayMode" must be a boolean')
  return { query: value['query'], params: params.map(jsonToPgText), ...(typeof arrayMode === 'boolean' ? { arrayMode } : {}) }
}

/**
 * `json_value_to_pg_text`: strings pass through unescaped (they are bind parameters), null stays SQL NULL,
 * booleans/numbers/objects become their JSON text, and arrays become Postgres array literals.
 */
export function jsonToPgText(value: unknown): string | null {
  if (value === null) return null
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return jsonToPgArray(value)
  return JSON.stringify(value)
}

/** `json_array_to_pg_array`: inside an array, strings are JSON-quoted and objects become quoted JSON text. */
function jsonToPgArray(value: unknown): string {
  if (value === null) return 'NULL'
  if (Array.isArray(value)) return `{${value.map(jsonToPgArray).join(',')}}`
  if (isObject(value)) return JSON.stringify(JSON.stringify(value))
  return JSON.stringify(value)
}

/**
 * Builds one result object from pg's raw output (every value still Postgres text, thanks to the identity
 * type parser). With `Neon-Raw-Text-Output: true` values stay text; otherwise `pg_text_to_json` rules apply.
 */
export async function toNeonResult(
  result: { readonly command: string | null; readonly rowCount: number | null; readonly fields: readonly FieldDef[]; readonly rows: readonly (readonly (string | null)[])[] },
  options: { readonly rawOutput: boolean; readonly arrayMode: boolean; readonly arrayElement: ArrayElementLookup },
): Promise<NeonResult> {
  const fields = result.fields.map((f): NeonField => ({
    name: f.name, dataTypeID: f.dataTypeID, tableID: f.tableID, columnID: f.columnID,
    dataTypeSize: f.dataTypeSize, dataTypeModifier: f.dataTypeModifier, format: 'text',
  }))
  const convert: ((text: string) => unknown)[] = []
  for (const f of fields) {
    // One lookup at a time: they share the request's connection.
    const element = options.rawOutput ? 0 : await options.arrayElement(f.dataTypeID)
    convert.push(options.rawOutput ? (text) => text : element === 0 ? (text) => pgTextToJson(text, f.dataTypeID) : (text) => parsePgArray(text, element))
  }
  const rows = result.rows.map((raw) => {
    const values = raw.map((v, i) => (v === null ? null : convert[i]!(v)))
    return options.arrayMode ? values : Object.fromEntries(fields.map((f, i) => [f.name, values[i]]))
  })
  // `parse_command_tag`: first word of the tag, and its row count (or null, e.g. `CREATE TABLE`).
  return { rowAsArray: options.arrayMode, fields, rows, command: result.command ?? '', rowCount: result.rowCount }
}

/** `pg_text_to_json` for scalars: bool, int2/int4 and finite float4/float8 become JSON; json/jsonb is embedded. */
export function pgTextToJson(text: string, oid: number): unknown {
  switch (oid) {
    case 16: return text === 't'
    case 21: case 23: return Number.parseInt(text, 10)
    case 700: case 701: {
      const n = Number(text)
      return Number.isFinite(n) ? n : text // NaN/±Infinity stay strings, as in the proxy
    }
    case 114: case 3802: return JSON.parse(text)
    default: return text
  }
}

/**
 * `pg_array_parse`: Postgres array text → nested JSON arrays, elements converted with `pgTextToJson`.
 * Bounds decoration (`[1:2]={…}`) is dropped and the delimiter is always `,`, as in the proxy.
 * One deliberate difference: `{}` gives `[]` (the proxy's parser would try to read an empty element).
 */
export function parsePgArray(src: string, elementOid: number): unknown[] {
  const unbalanced = (): Error => new Error('could not parse postgres response: unbalanced array')
  let i = 0
  const skipSpace = (): void => {
    while (i < src.length && /\s/.test(src[i]!)) i++
  }
  const list = (): unknown[] => {
    if (src[i] !== '{') throw unbalanced()
    i++
    const out: unknown[] = []
    skipSpace()
    if (src[i] === '}') {
      i++
      return out
    }
    for (;;) {
      skipSpace()
      if (src[i] === '{') {
        out.push(list())
      } else if (src[i] === '"') {
        let text = ''
        for (i++; ; ) {
          const c = src[i++]
          if (c === undefined) throw unbalanced()
          if (c === '"') break
          text += c === '\\' ? (src[i++] ?? '') : c
        }
        skipSpace()
        out.push(pgTextToJson(text, elementOid))
      } else {
        let end = i
        while (end < src.length && src[end] !== ',' && src[end] !== '}') end++
        if (end === src.length) throw unbalanced()
        const item = src.slice(i, end).trimEnd()
        i = end
        out.push(item === 'NULL' ? null : pgTextToJson(item, elementOid))
      }
      if (src[i] !== ',') break
      i++
    }
    if (src[i] !== '}') throw unbalanced()
    i++
    skipSpace()
    return out
  }
  if (src.startsWith('[')) {
    const eq = src.indexOf('=')
    if (eq < 0) throw unbalanced()
    i = eq + 1
  }
  skipSpace()
  const out = list()
  if (i !== src.length) throw unbalanced()
  return out
}

/**
 * The 400 body for a Postgres error: `message` plus the DbError fields pg reports. The proxy writes every key
 * (null when absent); absent ones are omitted here, which the driver reads the same (`q[J] ?? undefined`).
 */
export function errorBody(error: unknown): Record<string, string> {
  const source = (isObject(error) ? error : {}) as Record<string, unknown>
  const body: Record<string, string> = { message: error instanceof Error ? error.message : String(error) }
  for (const key of ERROR_KEYS) {
    const value = source[key]
    if (typeof value === 'string') body[key] = value
  }
  return body
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
