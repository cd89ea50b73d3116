/**
 * One schema step. `statements(prefix)` returns the SQL for one application namespace (table names start
 * with `prefix`, e.g. `app3_`); registry steps get an empty prefix.
 *
 * Every statement must be idempotent (`IF NOT EXISTS`, insert-ignore): two isolates may race to apply the
 * same step, and on MySQL DDL commits implicitly, so a half-applied step must be safe to run again. Where
 * that is impossible (adding a column), the step says how to recognise it as applied (`appliedProbe`).
 * MySQL has no `CREATE INDEX IF NOT EXISTS`, so its indexes are declared inside `CREATE TABLE`.
 */
export interface Migration {
  readonly version: number
  readonly name: string
  statements(prefix: string): string[]
  /**
   * For a step whose DDL cannot be written idempotently (`ALTER TABLE … ADD COLUMN` on SQLite and MySQL 8): a
   * query returning a row when the step's changes are already in place. When the step's batch fails, the
   * runner asks it and, if so, records the step as applied instead of failing: another migrator won the race,
   * or (MySQL, whose DDL commits implicitly) an earlier run committed the DDL but not its record. Only sound
   * when the step's changes land together: one atomic batch (SQLite) or one DDL statement (MySQL).
   */
  appliedProbe?(prefix: string): string
}

/** The two migration scopes: the application registry (default database) and each application's tables. */
export interface MigrationSet {
  readonly registry: readonly Migration[]
  readonly application: readonly Migration[]
}
