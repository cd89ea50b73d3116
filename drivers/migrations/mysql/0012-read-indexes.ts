import type { Migration } from '../migration.ts'
import { READ_INDEXES, REPLACED_INDEXES } from '../sqlite/0012-read-indexes.ts'

/**
 * Migration 0012 (application), MySQL 8 / MariaDB: the indexes of the SQLite migration. MySQL 8 has neither
 * `CREATE INDEX IF NOT EXISTS` nor `DROP INDEX IF EXISTS`, and these indexes go on an existing table, so each
 * one is a statement chosen from `information_schema.statistics` and run as a prepared statement (a write
 * batch is one session, so the user variable carries over). The new indexes are created before the old ones
 * are dropped: `module_id` is a foreign key, and InnoDB keeps an index on it. InnoDB's secondary indexes
 * carry the primary key, so they cover `COUNT(*)` and the page's order as on SQLite.
 */
export const application0012: Migration = {
  version: 12,
  name: 'read-indexes',
  statements: (p) => [
    // Two isolates migrating at once may both find an index missing and both create it: the loser fails with
    // a duplicate key name and applyMigrations runs the step again, when the check finds it (drivers/migrate.ts).
    // No GET_LOCK: a batch that fails while holding one (a deadlock retried by the driver) hands its pooled
    // connection back still holding the lock, which then serialised nothing and stalled the next migrator.
    ...READ_INDEXES.flatMap(([name, columns]) => ddlUnless(p, name, true, `CREATE INDEX \`${p}${name}\` ON \`${p}error_groups\` (${columns})`)),
    ...REPLACED_INDEXES.flatMap((name) => ddlUnless(p, name, false, `DROP INDEX \`${p}${name}\` ON \`${p}error_groups\``)),
  ],
}

/** Runs `ddl` only when the index named `name` exists (`exists` false) or is missing (`exists` true). */
export function ddlUnless(p: string, name: string, whenMissing: boolean, ddl: string): string[] {
  const present = `(SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = '${p}error_groups' AND index_name = '${p}${name}') > 0`
  return ddlSkippedWhen(whenMissing ? present : `NOT ${present}`, ddl)
}

/**
 * Runs `ddl` (its single quotes doubled: it becomes a string literal) only while the SQL condition `skip` is
 * false — a prepared statement, since MySQL has no `IF NOT EXISTS` for indexes or columns.
 */
export function ddlSkippedWhen(skip: string, ddl: string): string[] {
  return [`SET @loupe_ddl = IF(${skip}, 'DO 0', '${ddl}')`, 'PREPARE loupe_ddl FROM @loupe_ddl', 'EXECUTE loupe_ddl', 'DEALLOCATE PREPARE loupe_ddl']
}
