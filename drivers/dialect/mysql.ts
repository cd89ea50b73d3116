import { asFragment, limitedRowsIn, jsonPairs as pairs, setList, type Dialect, type JsonColumnType } from './dialect.ts'
import { raw, sql } from '../sql.ts'

const quote = (identifier: string) => `\`${identifier.replaceAll('`', '``')}\``
const binLower = (expression: string) => `CONVERT(LOWER(${expression}) USING utf8mb4) COLLATE utf8mb4_bin`

const JSON_TABLE_TYPES: Readonly<Record<JsonColumnType, string>> = { text: 'LONGTEXT', integer: 'BIGINT', real: 'DOUBLE' }

/**
 * `JSON_TABLE` over `parameters` JSON arrays (several are concatenated by JSON_MERGE_PRESERVE), each column
 * read at `path(name, index)`.
 */
function jsonTable(columns: Readonly<Record<string, JsonColumnType>>, alias: string, parameters: number, path: (name: string, index: number) => string): string {
  const source = parameters === 1 ? '?' : `JSON_MERGE_PRESERVE(${Array.from({ length: parameters }, () => '?').join(', ')})`
  const fields = Object.entries(columns)
    .map(([name, type], index) => `${quote(name)} ${JSON_TABLE_TYPES[type]} PATH '${path(name, index)}'`)
    .join(', ')
  return `JSON_TABLE(${source}, '$[*]' COLUMNS (${fields})) AS ${alias}`
}

/**
 * MySQL 8 as spoken by PlanetScale (and MariaDB ≥ 10.6 locally). Parameters are interpolated client-side by
 * `@planetscale/database`, so `?` stays as written.
 */
export const mysqlDialect: Dialect = {
  name: 'mysql',
  quote,
  compile: (sql) => sql,
  // INSERT IGNORE would also swallow foreign-key and truncation errors; a no-op duplicate update skips
  // exactly the duplicate-key case and nothing else. Targets are table-qualified because with a SELECT
  // source MySQL also resolves names against the selected columns ("Column 'x' in UPDATE is ambiguous").
  insertIgnore: (table, columns, source, conflict) =>
    `INSERT INTO ${table} (${columns.join(', ')}) ${source} ON DUPLICATE KEY UPDATE ${table}.${conflict[0]} = ${table}.${conflict[0]}`,
  // `onlyIf` has no MySQL spelling and needs none: InnoDB leaves a row whose values do not change unwritten.
  upsert: (table, columns, source, _conflict, updates) =>
    `INSERT INTO ${table} (${columns.join(', ')}) ${source} ON DUPLICATE KEY UPDATE ` +
    Object.entries(updates)
      .map(([column, expression]) => `${table}.${column} = ${expression}`)
      .join(', '),
  // VALUES() in ON DUPLICATE KEY UPDATE is deprecated in MySQL 8.0.20 but still the only spelling that
  // both MySQL 8 and MariaDB accept with an INSERT … SELECT source.
  updateFrom: (table, alias, assignments, from, on) =>
    sql`UPDATE ${raw(table)} AS ${raw(alias)} JOIN ${asFragment(from)} ON ${asFragment(on)} SET ${setList(assignments, `${alias}.`)}`,
  // Multi-table DELETE: one statement where each statement costs PlanetScale a round trip.
  deleteRelated: (root, rootAlias, where, related) => [
    sql`DELETE ${raw(related.map((r) => r.alias).join(', '))} FROM ${raw(root)} ${raw(rootAlias)} ${raw(related.map((r) => `LEFT JOIN ${r.table} ${r.alias} ON ${r.on}`).join(' '))} WHERE ${asFragment(where)}`,
  ],
  lockingRead: ' FOR UPDATE',
  cascadesDeletes: true,
  historyAppliesStatus: true,
  searchSignature: 'issue-columns',
  searchTextMatch: null,
  planGate: 'where',
  rowsById: (table, alias, ids) =>
    sql`FROM (SELECT DISTINCT i.id FROM (${ids}) i) ids STRAIGHT_JOIN ${raw(table)} ${raw(alias)} WHERE ${raw(alias)}.id = ids.id`,
  limitedRowsOf: limitedRowsIn,
  existsProbe: (subquery) => sql`(${subquery} LIMIT 1) IS NOT NULL`,
  isDistinct: (a, b) => `NOT (${a} <=> ${b})`,
  isSame: (a, b) => `${a} <=> ${b}`,
  incoming: (column) => `VALUES(${column})`,
  least: (a, b) => `LEAST(${a}, ${b})`,
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  // Fold case with LOWER(), then compare bytes: the columns' utf8mb4_unicode_ci would also equate accents
  // (ü = u) and ignore characters it gives no weight (NUL, U+E000), unlike SQLite's and PostgreSQL's tests.
  unindexed: (expression) => expression,
  containsCi: (haystack, needle) => `LOCATE(${binLower(needle)}, ${binLower(haystack)}) > 0`,
  jsonArray: (fields, from) =>
    `(SELECT COALESCE(JSON_ARRAYAGG(JSON_OBJECT(${pairs(fields)})), JSON_ARRAY()) ${from})`,
  jsonRecords: (columns, alias, parameters = 1) => jsonTable(columns, alias, parameters, (name) => `$.${name}`),
  jsonTuples: (columns, alias, parameters = 1) => jsonTable(columns, alias, parameters, (_name, index) => `$[${index}]`),
  castText: (expression) => `CAST(${expression} AS CHAR)`,
  returningId: '',
  batchLock: () => undefined,
  migrationLock: () => undefined,
  transactionalDdl: false,
  migrationsTable: `CREATE TABLE IF NOT EXISTS loupe_migrations (
    scope VARCHAR(64) COLLATE utf8mb4_bin NOT NULL,
    version INT NOT NULL,
    name VARCHAR(100) NOT NULL,
    applied_at VARCHAR(19) NOT NULL,
    PRIMARY KEY (scope, version)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
  versionQuery: 'SELECT VERSION() AS version',
  describeVersion: (raw) => (/mariadb/i.test(raw) ? `MariaDB ${raw.split('-')[0]}` : `MySQL ${raw}`),
}

