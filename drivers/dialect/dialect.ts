import { Fragment, join, raw, sql } from '../sql.ts'
import type { SqlValue } from '../driver.ts'

/** SQL text, or a fragment carrying the arguments of its placeholders. */
export type SqlText = string | Fragment

/** The types of a `jsonRecords` / `jsonTuples` column (`real`: a double, e.g. the digest's heat weights). */
export type JsonColumnType = 'text' | 'integer' | 'real'

/** A part of a builder's input as a fragment (plain text has no arguments). */
export function asFragment(part: SqlText): Fragment {
  return typeof part === 'string' ? new Fragment(part) : part
}

/** `column = expression, …` of an UPDATE's SET list, `prefix` before each column (MySQL's `alias.`). */
export function setList(assignments: Readonly<Record<string, SqlText>>, prefix = ''): Fragment {
  return join(Object.entries(assignments).map(([column, expression]) => sql`${raw(`${prefix}${column}`)} = ${asFragment(expression)}`), ', ')
}

/** `column = ?, …` of an UPDATE's SET list, each value bound as an argument (a partial update's fields). */
export function setValues(values: Readonly<Record<string, SqlValue>>): Fragment {
  return setList(Object.fromEntries(Object.entries(values).map(([column, value]) => [column, sql`${value}`])))
}

/**
 * Every SQL text difference between the three engines lives behind this interface (design.md §2,
 * reference-behaviour.md §1.5). Query code composes SQL through it and never asks which engine it has.
 *
 * Conventions all implementations share:
 * - statements are written with `?` placeholders (see `compile`);
 * - timestamps are TEXT `YYYY-MM-DD HH:MM:SS` computed in JS, so no engine date functions are needed;
 * - booleans are stored as integers 0/1;
 * - the MySQL dialect targets the intersection of MySQL 8 (PlanetScale) and MariaDB ≥ 10.6 (the local
 *   test engine): no RETURNING, no `CREATE INDEX IF NOT EXISTS`, no ORDER BY inside JSON_ARRAYAGG.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres' | 'mysql'

  /** Quotes one identifier: `"x"` or `` `x` ``. */
  quote(identifier: string): string

  /** Rewrites `?` placeholders into the engine's form (PostgreSQL `$1…`); identity elsewhere. */
  compile(sql: string): string

  /**
   * `INSERT … <source>` that silently skips rows whose unique key already exists.
   * `source` is `VALUES (…)` or a `SELECT`.
   */
  insertIgnore(table: string, columns: readonly string[], source: string, conflict: readonly string[]): string

  /**
   * `INSERT … <source> ON CONFLICT (conflict) DO UPDATE SET …`. Update expressions refer to the incoming row
   * through `incoming(column)`. A SELECT source must contain a WHERE clause (SQLite's upsert grammar needs
   * it to tell `ON CONFLICT` from a join constraint; `WHERE 1 = 1` will do). `onlyIf` (over the existing row,
   * by table name, and `incoming(…)`) skips the update of rows for which it is false; MySQL, which cannot
   * say it, skips rows whose values are unchanged by itself.
   */
  upsert(
    table: string,
    columns: readonly string[],
    source: string,
    conflict: readonly string[],
    updates: Readonly<Record<string, string>>,
    onlyIf?: string,
  ): string

  /**
   * `UPDATE table AS alias SET … ` joined to a row source: `from` is a complete FROM item with its own alias
   * (a subquery or `jsonRecords`), `on` the join condition. Only rows with a match are updated. Assignment
   * expressions may read the old row through `alias`; list them so that reading left to right is correct
   * (MySQL applies SET assignments in order, the others all at once). `from` must not read `table`, except
   * through an aggregate (a count guarding the update): MySQL materialises an aggregating derived table, its
   * documented way around error 1093 ("can't specify target table for update in FROM clause").
   * Each part may be a fragment with arguments (drivers/sql.ts): the engines place SET before (SQLite,
   * PostgreSQL) or after (MySQL) the joined row source, and the result carries the arguments in the order
   * its own text needs.
   */
  updateFrom(table: string, alias: string, assignments: Readonly<Record<string, SqlText>>, from: SqlText, on: SqlText): Fragment

  /**
   * Deletes the rows of the `related` tables that belong to the `root` rows `where` selects (the root rows
   * stay): each `on` relates its `alias` to `rootAlias`. One statement on MySQL — a multi-table DELETE over
   * LEFT JOINs, tables visited in the order listed — where every statement is a round trip (PlanetScale,
   * issue 18); one statement per table elsewhere, run in the same batch.
   */
  deleteRelated(root: string, rootAlias: string, where: SqlText, related: readonly RelatedRows[]): Fragment[]

  /**
   * Appended to a SELECT — also the SELECT of an INSERT … SELECT — to lock the rows it reads for update until
   * the batch commits, so a later UPDATE of them in the batch neither deadlocks with a concurrent batch doing
   * the same nor works from a stale read (MySQL, PostgreSQL: ` FOR UPDATE`). SQLite runs one write batch at a
   * time and has no such clause (empty).
   */
  readonly lockingRead: string

  /**
   * Whether the migrations' `ON DELETE CASCADE` foreign keys are enforced on every connection, so deleting a
   * parent row deletes its children in the same statement. MySQL (InnoDB) and PostgreSQL always enforce them;
   * SQLite only under `PRAGMA foreign_keys`, which libSQL connections do not set — there children are deleted
   * explicitly.
   */
  readonly cascadesDeletes: boolean

  /**
   * Whether a status-history row inserted with a `change_token` applies itself (MySQL, migration 0019): its
   * trigger takes `from_status` from the issue under the issue's row lock and moves the issue to `to_status`.
   * A status change is then one `INSERT … VALUES`, atomic alone, where PlanetScale sends each statement of a
   * batch as its own request (issue 18). Elsewhere a batch is one round trip and the change stays a batch.
   */
  readonly historyAppliesStatus: boolean

  /**
   * How issues carry a trigram signature of their searched text, so that `q` scans the narrow
   * `search_signatures` rows first and tests only the issues they admit (worker/issues/search-signature.ts);
   * null where they carry none.
   * - `'statement'` (SQLite, migration 0021): a writer stores an issue's signature with an UPDATE of its own
   *   after writing the text, in the same batch (one round trip, whatever the batch holds).
   * - `'issue-columns'` (MySQL, migration 0023): the statement that writes the text writes the signature too,
   *   into the issue row's `signature_w0` … `signature_w4`, and triggers copy it into `search_signatures`.
   *   PlanetScale sends each statement as a request of its own, and an import batch already takes the ten
   *   design.md allows it.
   * Only sound where `containsCi`'s `lower()` folds as the signature does: SQLite's folds ASCII only; MySQL's
   * maps each character to one, and to ASCII only from ASCII, KELVIN SIGN and I WITH DOT ABOVE (asserted per
   * engine in test/worker/issues/search-signature.test.ts). PostgreSQL's folds by locale: it keeps a
   * trigram-indexed search text instead (`searchTextMatch`).
   */
  readonly searchSignature: 'statement' | 'issue-columns' | null

  /**
   * Where each issue's searched text is kept in `search_text` (PostgreSQL, migration 0022: lowered by the
   * engine's own `lower()`, so it folds exactly as `containsCi`, under a pg_trgm index where the role may create
   * the extension): the test over its `haystack` column that admits every issue whose text may contain the
   * needle placeholder — a superset, which the exact test then narrows. Null where no such text is kept.
   */
  readonly searchTextMatch: ((haystack: string, needle: string) => string) | null

  /**
   * How one statement holding two plans turns one off with a condition computed once, before either reads a
   * row (the issue list's rare-value arms, worker/issues/issue-candidates.ts), or null where none is known to:
   * - SQLite, `'limit'`: a zero LIMIT ends the query before its loop. A constant WHERE term is hoisted out of the
   *   loop only when it holds no subquery; otherwise the loop runs and tests it on every row.
   * - PostgreSQL, `'where'`: a WHERE term that refers to no row is a one-time filter above the plan, which is
   *   then never executed. A computed LIMIT would be planned as 10 % of the rows (a full sort instead of an
   *   index walk).
   * - MySQL, `'where'` (LIMIT takes only literals and placeholders): a WHERE term over no table is the query
   *   block's constant condition, tested once before its join reads a row; MariaDB 10.11's `ANALYZE FORMAT=JSON`
   *   shows the other arm's tables with `r_loops: 0` (test/worker/issues/issue-candidates.test.ts).
   * - null: where no such condition is known; the list then walks the sort index for every value.
   */
  readonly planGate: 'limit' | 'where' | null

  /**
   * `FROM … WHERE <condition>` over the rows of `table` (as `alias`) whose `id` the one-column subquery `ids`
   * lists (an id may repeat; each row comes once) — a short list, read first, each row then found by its key;
   * more conditions may follow with AND.
   * - SQLite: the distinct list CROSS JOINed first (its documented way to fix a join order).
   * - PostgreSQL: `id = ANY (ARRAY(ids))`, an index scan of the key for a list it plans as about ten ids; as a
   *   join it guessed the list's size from averages and hashed the whole table.
   * - MySQL: the distinct list STRAIGHT_JOINed first (MySQL's way to fix a join order). As `id IN` the list,
   *   MariaDB estimated a list without a LIMIT (`q`'s signature matches) from its tables' sizes and scanned
   *   every issue against it: a `q` at 20,000 issues read 32 ms, 6 ms from the list (docs/performance.md).
   */
  rowsById(table: string, alias: string, ids: Fragment): Fragment

  /**
   * `SELECT alias.<column>s …`: at most `limit` rows of `table` (as `alias`) whose `keyColumn` is one of the
   * values the one-column subquery `keys` lists as `id` — a short list over an index that leads with
   * `keyColumn`, each value read as its own range, stopping at `limit` rows in all.
   * - SQLite, MySQL: `keyColumn IN (keys) … LIMIT n`, which both plan as a range per value, stopped at n.
   * - PostgreSQL: the keys LATERAL-joined to a range each, in the index's order (`columns` must follow
   *   `keyColumn` in it), itself stopped at n. As `IN` or `= ANY`, or unordered, it estimated each value's
   *   rows from the column's average (40,000 `group_sources` pairs per file) and, under the LIMIT, chose a
   *   sequential scan to find them: all 800,000 pairs read to find one file's 100, 58–69 ms against 0.6
   *   (docs/performance.md).
   */
  limitedRowsOf(table: string, alias: string, keyColumn: string, keys: Fragment, columns: readonly string[], limit: number): Fragment

  /**
   * `EXISTS (subquery)` for a correlated subquery (selecting a non-NULL constant) that is to be tested per
   * outer row, as written. MySQL/MariaDB turn a top-level EXISTS into a semi-join driven from the subquery's
   * rows: for a tag on 30,000 issues the page read every tagged issue and sorted them (54 ms) instead of
   * walking the sort index and probing 50 of them (3 ms; MariaDB 10.11). A scalar subquery is never turned
   * into a join, so MySQL writes `(subquery LIMIT 1) IS NOT NULL`.
   */
  existsProbe(subquery: Fragment): Fragment

  /** Null-safe inequality of two expressions (`IS NOT`, `IS DISTINCT FROM`, `NOT (a <=> b)`). */
  isDistinct(a: string, b: string): string

  /** Null-safe equality of two expressions (`IS`, `IS NOT DISTINCT FROM`, `<=>`). */
  isSame(a: string, b: string): string

  /** The incoming row's value of `column` inside an upsert's update list. */
  incoming(column: string): string

  /** Smaller / larger of two non-NULL scalar expressions. */
  least(a: string, b: string): string
  greatest(a: string, b: string): string

  /**
   * Case-insensitive "haystack contains needle" (both SQL expressions): a plain substring test, so the
   * needle is literal (no LIKE wildcards) and of any length (D1 refuses LIKE patterns over 50 bytes,
   * "LIKE or GLOB pattern too complex"). Case folding follows the engine: SQLite folds ASCII letters only,
   * PostgreSQL and MySQL fold Unicode.
   */
  containsCi(haystack: string, needle: string): string

  /**
   * `expression` — a WHERE term's column, or an ORDER BY list (`a DESC, b DESC, …`), whose first term it
   * marks — as one the engine must not read from an index. SQLite plans by rules, not row counts, and would
   * otherwise:
   * - walk the sort index of a page that reads every match anyway, looking up each issue row in list order
   *   (list-issues.ts, with a window count: 167 ms against a 77 ms scan at 100,000 issues when nothing matches);
   * - drive a count from the (severity, status) index — every issue of the severity — instead of the few rows
   *   another term's index names (issue-total.ts, `severity` with `date`).
   * SQLite: a unary `+`. PostgreSQL and MySQL choose by cost: unchanged.
   */
  unindexed(expression: string): string

  /**
   * A scalar subquery returning a JSON array of objects: `fields` maps output keys to SQL expressions
   * evaluated over `from` (a FROM … WHERE … tail, which may refer to outer columns). Element order is not
   * guaranteed on every engine: callers sort after `parseJson`. An empty set gives `[]`.
   */
  jsonArray(fields: Readonly<Record<string, string>>, from: string): string

  /**
   * A row source (usable after FROM, aliased `alias`) that expands bound JSON parameters — arrays of objects,
   * `parameters` of them (default one), read as one array — into typed columns. This is how multi-row writes
   * stay one statement with a few parameters, under D1's 100-bound-parameter limit; several parameters keep
   * each string under D1's 1 MB limit (wire-protocols.md §3).
   */
  jsonRecords(columns: Readonly<Record<string, JsonColumnType>>, alias: string, parameters?: number): string

  /**
   * `jsonRecords` for JSON arrays of arrays: each row is `[value, …]` in the order of `columns`. Without the
   * keys the parameter is smaller and SQLite reads it faster (an import's occurrence rows: measured 6.5 vs
   * 7.7 ms per 1,000 rows in workerd's D1).
   */
  jsonTuples(columns: Readonly<Record<string, JsonColumnType>>, alias: string, parameters?: number): string

  /** `CAST(x AS <text type>)`. */
  castText(expression: string): string

  /** Appended to an INSERT to get the new id back where the engine has no last-insert id (PostgreSQL). */
  readonly returningId: string

  /**
   * A statement that, run first in a migration batch, serialises concurrent migrators until the batch
   * commits (PostgreSQL's transaction-scoped advisory lock). SQLite batches are serialised by the engine
   * and MySQL DDL commits implicitly, so those rely on idempotent statements instead.
   */
  migrationLock(key: number): string | undefined

  /**
   * Whether DDL runs inside a transaction and rolls back with it (SQLite, PostgreSQL), so several migration
   * steps can go in one atomic batch (drivers/migrate.ts). MySQL commits every DDL statement on its own.
   */
  readonly transactionalDdl: boolean

  /**
   * A statement that, run in a batch, holds the lock named `key` until the batch commits: `shared` holders
   * run together, `exclusive` waits for them and excludes them. PostgreSQL needs it where a batch must see
   * what another committed while it waited (READ COMMITTED takes a new snapshot per statement, so the
   * statements after the lock see the other batch's work): the tag rules (worker/tags/tag-rules.ts). SQLite
   * serialises write batches, and MySQL's INSERT … SELECT reads its sources with locking reads, so neither
   * needs one (undefined).
   */
  batchLock(key: number, mode: 'shared' | 'exclusive'): string | undefined

  /** DDL of the table that records applied migrations (created before anything else). */
  readonly migrationsTable: string

  /** A query returning the engine version as column `version`, and how to present it (`SQLite 3.45.1`). */
  readonly versionQuery: string
  describeVersion(raw: string): string
}

/** A table whose rows `Dialect.deleteRelated` deletes: `on` relates `alias` to the root row. */
export interface RelatedRows {
  readonly table: string
  readonly alias: string
  readonly on: string
}

/** `limitedRowsOf` as `IN` the keys under one LIMIT (SQLite, MySQL: a range per key, stopped at the limit). */
export const limitedRowsIn: Dialect['limitedRowsOf'] = (table, alias, keyColumn, keys, columns, limit) =>
  sql`SELECT ${raw(columns.map((column) => `${alias}.${column}`).join(', '))} FROM ${raw(table)} ${raw(alias)} WHERE ${raw(`${alias}.${keyColumn}`)} IN (${keys}) LIMIT ${raw(String(limit))}`

/** `deleteRelated` as one DELETE per table (SQLite, PostgreSQL): rows with a matching root row. */
export function deleteRelatedEach(root: string, rootAlias: string, where: SqlText, related: readonly RelatedRows[]): Fragment[] {
  return related.map(({ table, alias, on }) => sql`DELETE FROM ${raw(table)} AS ${raw(alias)} WHERE EXISTS (SELECT 1 FROM ${raw(root)} ${raw(rootAlias)} WHERE (${asFragment(where)}) AND (${raw(on)}))`)
}

/** `'key', expression, …` — the argument list of the engines' JSON object constructors. */
export function jsonPairs(fields: Readonly<Record<string, string>>): string {
  return Object.entries(fields)
    .map(([key, expression]) => `'${key}', ${expression}`)
    .join(', ')
}

/** Reads a JSON column: SQLite and MariaDB return text, PostgreSQL and MySQL 8 may return parsed values. */
export function parseJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback
  if (typeof value === 'string') return value === '' ? fallback : (JSON.parse(value) as T)
  return value as T
}
