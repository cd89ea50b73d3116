/**
 * One schema step. `statements(prefix)` returns the SQL for one application namespace (table names start
 * with `prefix`, e.g. `app3_`); registry steps get an empty prefix.
 *
 * Every statement must be idempotent (`IF NOT EXISTS`, insert-ignore): two isolates may race to apply the
 * same step, and on MySQL DDL commits implicitly, so a half-applied step must be safe to run again.
 * MySQL has no `CREATE INDEX IF NOT EXISTS`, so its indexes are declared inside `CREATE TABLE`.
 */
export interface Migration {
  readonly version: number
  readonly name: string
  statements(prefix: string): string[]
}

/** The two migration scopes: the application registry (default database) and each application's tables. */
export interface MigrationSet {
  readonly registry: readonly Migration[]
  readonly application: readonly Migration[]
}
