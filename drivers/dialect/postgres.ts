import { asFragment, deleteRelatedEach, jsonPairs as pairs, setList, type Dialect, type JsonColumnType } from './dialect.ts'
import { raw, sql } from '../sql.ts'

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`

/** `parameters` bound JSON arrays as one jsonb array (jsonb's || concatenates arrays). */
function jsonbParameters(parameters: number): string {
  return Array.from({ length: parameters }, () => '?::jsonb').join(' || ')
}

const RECORD_TYPES: Readonly<Record<JsonColumnType, string>> = { text: 'text', integer: 'bigint', real: 'double precision' }

/**
 * An issue's searched text as `search_text` keeps it (migration 0022), over the issue row `row`: its four
 * searched columns lowered by the engine's `lower()` (so it folds exactly as `containsCi`), one per line, with
 * ASCII digits as `0`. Every column's lowered text is inside it, so every issue `q` matches is admitted; the
 * digits fold so that a sample message differing only in its numbers (an order id) is the same text, and an
 * import that replaces the sample does not rewrite the row and its trigram index entries.
 */
export function searchHaystack(row: string): string {
  return foldDigits(`lower(concat_ws(chr(10), ${['title', 'sample_message', 'exception_class', 'source_frame'].map((column) => `${row}.${column}`).join(', ')}))`)
}

const foldDigits = (text: string) => `regexp_replace(${text}, '[0-9]', '0', 'g')`

/** PostgreSQL, as spoken by Neon's SQL-over-HTTP. */
export const postgresDialect: Dialect = {
  name: 'postgres',
  quote,
  compile: toNumberedPlaceholders,
  insertIgnore: (table, columns, source, conflict) =>
    `INSERT INTO ${table} (${columns.join(', ')}) ${source} ON CONFLICT (${conflict.join(', ')}) DO NOTHING`,
  upsert: (table, columns, source, conflict, updates, onlyIf) =>
    `INSERT INTO ${table} (${columns.join(', ')}) ${source} ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ` +
    Object.entries(updates)
      .map(([column, expression]) => `${column} = ${expression}`)
      .join(', ') +
    (onlyIf ? ` WHERE ${onlyIf}` : ''),
  updateFrom: (table, alias, assignments, from, on) =>
    sql`UPDATE ${raw(table)} AS ${raw(alias)} SET ${setList(assignments)} FROM ${asFragment(from)} WHERE ${asFragment(on)}`,
  deleteRelated: deleteRelatedEach,
  lockingRead: ' FOR UPDATE',
  cascadesDeletes: true,
  historyAppliesStatus: false,
  searchSignature: null,
  // The needle folded as the haystack is (searchHaystack), then escaped for LIKE, whose default escape is `\`.
  searchTextMatch: (haystack, needle) =>
    `${haystack} LIKE '%' || replace(replace(replace(${foldDigits(`lower(${needle}::text)`)}, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`,
  planGate: 'where',
  rowsById: (table, alias, ids) => sql`FROM ${raw(table)} ${raw(alias)} WHERE ${raw(alias)}.id = ANY (ARRAY(${ids}))`,
  limitedRowsOf: (table, alias, keyColumn, keys, columns, limit) => {
    const list = (from: string) => raw(columns.map((column) => `${from}.${column}`).join(', '))
    const stop = raw(`LIMIT ${limit}`)
    return sql`SELECT ${list(alias)} FROM (${keys}) lk
      CROSS JOIN LATERAL (SELECT ${list('lr')} FROM ${raw(table)} lr WHERE lr.${raw(keyColumn)} = lk.id ORDER BY ${list('lr')} ${stop}) ${raw(alias)} ${stop}`
  },
  existsProbe: (subquery) => sql`EXISTS (${subquery})`,
  isDistinct: (a, b) => `${a} IS DISTINCT FROM ${b}`,
  isSame: (a, b) => `${a} IS NOT DISTINCT FROM ${b}`,
  incoming: (column) => `EXCLUDED.${column}`,
  least: (a, b) => `LEAST(${a}, ${b})`,
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  // strpos over lower() rather than ILIKE: the needle is data, not a pattern.
  unindexed: (expression) => expression,
  containsCi: (haystack, needle) => `strpos(lower(${haystack}), lower(${needle}::text)) > 0`,
  jsonArray: (fields, from) =>
    `(SELECT COALESCE(json_agg(json_build_object(${pairs(fields)})), '[]'::json) ${from})`,
  jsonRecords: (columns, alias, parameters = 1) =>
    `jsonb_to_recordset(${jsonbParameters(parameters)}) AS ${alias}(${Object.entries(columns)
      .map(([name, type]) => `${quote(name)} ${RECORD_TYPES[type]}`)
      .join(', ')})`,
  jsonTuples: (columns, alias, parameters = 1) =>
    `(SELECT ${Object.entries(columns)
      .map(([name, type], index) => (type === 'text' ? `e->>${index} AS ${quote(name)}` : `(e->>${index})::${RECORD_TYPES[type]} AS ${quote(name)}`))
      .join(', ')} FROM jsonb_array_elements(${jsonbParameters(parameters)}) AS e) AS ${alias}`,
  castText: (expression) => `CAST(${expression} AS TEXT)`,
  returningId: ' RETURNING id',
  batchLock: (key, mode) => `SELECT ${mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}(${key})`,
  migrationLock: (key) => `SELECT pg_advisory_xact_lock(${key})`,
  transactionalDdl: true,
  migrationsTable: `CREATE TABLE IF NOT EXISTS loupe_migrations (
    scope TEXT NOT NULL,
    version INTEGER NOT NULL,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL,
    PRIMARY KEY (scope, version)
  )`,
  versionQuery: 'SELECT version() AS version',
  describeVersion: (raw) => /^PostgreSQL [\d.]+/.exec(raw)?.[0] ?? raw.split(' on ')[0] ?? raw,
}

/**
 * `?` → `$1, $2, …`, skipping string literals, quoted identifiers and comments so a `?` inside them is
 * left alone. PostgreSQL's own `?`-family JSON operators are not used anywhere in Loupe.
 */
function toNumberedPlaceholders(sql: string): string {
  let out = ''
  let index = 0
  let i = 0
  while (i < sql.length) {
    const c = sql[i]!
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i, c)
      out += sql.slice(i, end)
      i = end
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      const stop = end === -1 ? sql.length : end
      out += sql.slice(i, stop)
      i = stop
    } else if (c === '?') {
      out += `$${++index}`
      i++
    } else {
      out += c
      i++
    }
  }
  return out
}

function closingQuote(sql: string, start: number, quoteChar: string): number {
  let i = start + 1
  while (i < sql.length) {
    if (sql[i] === quoteChar) {
      if (sql[i + 1] === quoteChar) i += 2
      else return i + 1
    } else i++
  }
  return sql.length
}
