/**
 * NUL-safe reading of TEXT values for the local Hrana server (hrana-server.ts).
 *
 * SQLite TEXT may contain U+0000, and libSQL's server (sqld) returns such text whole: it reads values with
 * their byte length (rusqlite's `ValueRef::Text`). The `libsql` package this server runs on does not: it
 * reads TEXT as a C string, so `SELECT 'a' || char(0) || 'b'` comes back as `'a'` (BLOBs are read whole).
 * To answer as sqld does, a query's rows are read through a wrapper that hands every TEXT value over as
 * its bytes (a BLOB) plus its type, and the text is decoded here. Only pure queries (SELECT, VALUES) are
 * wrapped; statements with side effects are run as they are (their `RETURNING` text would still be cut,
 * which Loupe's SQLite dialect never uses).
 */
import type { SqlStatement } from './hrana-sql.ts'

const CTE = 'loupe_nul_safe_rows'

/** Whether the statement's rows can be read through {@link nulSafeQuery}. */
export function isPureQuery(statement: SqlStatement): boolean {
  return !statement.isExplain && (statement.verb === 'SELECT' || statement.verb === 'VALUES')
}

/**
 * The statement as a materialised CTE (evaluated once, rows in their order), selecting each of its
 * `columnCount` columns as `[value, or its bytes when TEXT; typeof(value)]`. Parameters keep their
 * positions and names, since the statement's text is embedded unchanged.
 */
export function nulSafeQuery(sql: string, columnCount: number): string {
  const names = Array.from({ length: columnCount }, (_, index) => `c${index}`)
  const select = names.map((c) => `CASE WHEN typeof(${c}) = 'text' THEN CAST(${c} AS BLOB) ELSE ${c} END, typeof(${c})`)
  return `WITH ${CTE}(${names.join(', ')}) AS MATERIALIZED (\n${sql}\n) SELECT ${select.join(', ')} FROM ${CTE}`
}

/** Rows of {@link nulSafeQuery} back to the statement's own values, TEXT decoded as UTF-8. */
export function decodeNulSafeRows(rows: readonly unknown[][]): unknown[][] {
  return rows.map((row) => {
    const values: unknown[] = []
    for (let i = 0; i < row.length; i += 2) {
      const value = row[i]
      values.push(row[i + 1] === 'text' && value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value)
    }
    return values
  })
}
