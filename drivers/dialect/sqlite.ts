import { asFragment, limitedRowsIn, deleteRelatedEach, jsonPairs as pairs, setList, type Dialect } from './dialect.ts'
import { raw, sql } from '../sql.ts'

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`

/** Rows of `parameters` JSON arrays (one `json_each` each, UNION ALL), each column read at `path(name, index)`. */
function jsonEachRows(columns: Readonly<Record<string, unknown>>, alias: string, parameters: number, path: (name: string, index: number) => string): string {
  const fields = Object.keys(columns)
    .map((name, index) => `json_extract(value, '${path(name, index)}') AS ${quote(name)}`)
    .join(', ')
  return `(${Array.from({ length: parameters }, () => `SELECT ${fields} FROM json_each(?)`).join(' UNION ALL ')}) AS ${alias}`
}

/** SQLite, as spoken by D1 and libSQL. */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  quote,
  compile: (sql) => sql,
  insertIgnore: (table, columns, source) => `INSERT OR IGNORE INTO ${table} (${columns.join(', ')}) ${source}`,
  upsert: (table, columns, source, conflict, updates, onlyIf) =>
    `INSERT INTO ${table} (${columns.join(', ')}) ${source} ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ` +
    Object.entries(updates)
      .map(([column, expression]) => `${column} = ${expression}`)
      .join(', ') +
    (onlyIf ? ` WHERE ${onlyIf}` : ''),
  updateFrom: (table, alias, assignments, from, on) =>
    sql`UPDATE ${raw(table)} AS ${raw(alias)} SET ${setList(assignments)} FROM ${asFragment(from)} WHERE ${asFragment(on)}`,
  deleteRelated: deleteRelatedEach,
  lockingRead: '',
  cascadesDeletes: false,
  historyAppliesStatus: false,
  searchSignature: 'statement',
  searchTextMatch: null,
  planGate: 'limit',
  rowsById: (table, alias, ids) => sql`FROM (SELECT DISTINCT i.id FROM (${ids}) i) ids CROSS JOIN ${raw(table)} ${raw(alias)} WHERE ${raw(alias)}.id = ids.id`,
  limitedRowsOf: limitedRowsIn,
  existsProbe: (subquery) => sql`EXISTS (${subquery})`,
  isDistinct: (a, b) => `${a} IS NOT ${b}`,
  isSame: (a, b) => `${a} IS ${b}`,
  incoming: (column) => `excluded.${column}`,
  // SQLite's two-argument MIN/MAX are scalar functions, unlike LEAST/GREATEST elsewhere.
  least: (a, b) => `MIN(${a}, ${b})`,
  greatest: (a, b) => `MAX(${a}, ${b})`,
  unindexed: (expression) => `+${expression}`,
  containsCi: (haystack, needle) => `instr(lower(${haystack}), lower(${needle})) > 0`,
  jsonArray: (fields, from) =>
    `(SELECT json_group_array(json_object(${pairs(fields)})) ${from})`,
  jsonRecords: (columns, alias, parameters = 1) => jsonEachRows(columns, alias, parameters, (name) => `$.${name}`),
  jsonTuples: (columns, alias, parameters = 1) => jsonEachRows(columns, alias, parameters, (_name, index) => `$[${index}]`),
  castText: (expression) => `CAST(${expression} AS TEXT)`,
  returningId: '',
  batchLock: () => undefined,
  migrationLock: () => undefined,
  transactionalDdl: true,
  migrationsTable: `CREATE TABLE IF NOT EXISTS loupe_migrations (
    scope TEXT NOT NULL,
    version INTEGER NOT NULL,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL,
    PRIMARY KEY (scope, version)
  )`,
  versionQuery: 'SELECT sqlite_version() AS version',
  describeVersion: (raw) => `SQLite ${raw}`,
}

