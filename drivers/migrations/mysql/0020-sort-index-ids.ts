import type { Migration } from '../migration.ts'
import { ddlSkippedWhen } from './0012-read-indexes.ts'

/**
 * Migration 0020 (application), MySQL 8 / MariaDB only: the unfiltered sort indexes end with `id DESC`.
 *
 * The list orders by (last_seen DESC, count DESC, id DESC) or (count DESC, last_seen DESC, id DESC). InnoDB's
 * secondary indexes carry the primary key, but ascending, so `groups_last_seen (last_seen DESC, count DESC)` did
 * not give that order and MariaDB sorted every matching issue instead of walking the index (it has no partial
 * sort for the tie-break). At 100,000 synthetic issues on MariaDB 10.11 through the local PlanetScale server,
 * the list with no filter went from 38–46 to 5–19 ms, a tag on every issue from 80–86 to 12–18 ms, and a tag on
 * half of them from 80–88 to 8–24 ms (page and total together; docs/performance.md "MySQL sort indexes").
 * The filtered indexes of migration 0012 already end with `id DESC`. The names stay, so plans read the same.
 *
 * One ALTER TABLE (atomic DDL) swaps both, and runs only while `groups_last_seen` lacks `id`: a prepared
 * statement (`ddlSkippedWhen`), as MySQL has no `IF NOT EXISTS` for indexes. SQLite and PostgreSQL sort a tie
 * of the index's prefix on its own (a partial or incremental sort of the equal keys): their 0020 is empty.
 */
export const application0020: Migration = {
  version: 20,
  name: 'sort-index-ids',
  statements: (p) => {
    const G = `\`${p}error_groups\``
    const present = `(SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = '${p}error_groups' AND index_name = '${p}groups_last_seen' AND column_name = 'id') > 0`
    return ddlSkippedWhen(
      present,
      `ALTER TABLE ${G} DROP KEY \`${p}groups_last_seen\`, ADD KEY \`${p}groups_last_seen\` (last_seen DESC, count DESC, id DESC),
        DROP KEY \`${p}groups_count\`, ADD KEY \`${p}groups_count\` (count DESC, last_seen DESC, id DESC)`,
    )
  },
}
