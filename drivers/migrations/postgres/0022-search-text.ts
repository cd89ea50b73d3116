import { searchHaystack } from '../../dialect/postgres.ts'
import type { Migration } from '../migration.ts'

/**
 * Migration 0022 (application): each issue's searched text in a table of its own, under a pg_trgm index, so
 * that `q` reads the issues whose text may hold the needle instead of every issue (issue 18: `q=deadlock` grew
 * 9.96× from the small corpus to 300,000 occurrences; docs/performance.md "`q` on PostgreSQL: a search text (migration 0022)").
 *
 * A table, not trigram indexes on `error_groups`: every import batch updates the issues' `count` and
 * `last_seen`, which are indexed, so PostgreSQL makes no HOT update and wrote every GIN entry of the four
 * columns again — the import fell from 1,363 to 264 events/s. Here a row is written when an issue is created
 * and when its searched text changes (`searchHaystack`, whose digits fold so a new order id in the sample is no
 * change), by triggers, so no writer can forget it.
 *
 * The extension is created where the role may (Neon allows pg_trgm); another application's migration may be
 * creating it at the same moment (`unique_violation`). Without it the table has no index, `q` scans its rows
 * instead of the issues', and matches the same issues.
 */
export const application0022: Migration = {
  version: 22,
  name: 'search-text',
  statements: (p) => [
    `DO $loupe$ BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN insufficient_privilege OR unique_violation OR undefined_file OR feature_not_supported THEN NULL;
    END $loupe$`,
    `CREATE TABLE IF NOT EXISTS "${p}search_text" (
      group_id BIGINT PRIMARY KEY REFERENCES "${p}error_groups" (id) ON DELETE CASCADE,
      haystack TEXT NOT NULL
    )`,
    `DO $loupe$ DECLARE trgm name;
    BEGIN
      SELECT n.nspname INTO trgm FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
      IF trgm IS NOT NULL THEN
        EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I USING gin (haystack %I.gin_trgm_ops)', '${p}search_text_trigrams', '${p}search_text', trgm);
      END IF;
    END $loupe$`,
    // New issues: one INSERT per statement over its inserted rows (an import batch creates many).
    `CREATE OR REPLACE FUNCTION "${p}search_text_insert"() RETURNS trigger LANGUAGE plpgsql AS $loupe$
      BEGIN
        INSERT INTO "${p}search_text" (group_id, haystack) SELECT n.id, ${searchHaystack('n')} FROM inserted n
          ON CONFLICT (group_id) DO UPDATE SET haystack = EXCLUDED.haystack;
        RETURN NULL;
      END
      $loupe$`,
    `DROP TRIGGER IF EXISTS "${p}search_text_insert" ON "${p}error_groups"`,
    `CREATE TRIGGER "${p}search_text_insert" AFTER INSERT ON "${p}error_groups" REFERENCING NEW TABLE AS inserted
      FOR EACH STATEMENT EXECUTE FUNCTION "${p}search_text_insert"()`,
    // A changed text, per row: transition tables cannot go with a column list, and without one every update of
    // the counts would pass through the trigger.
    `CREATE OR REPLACE FUNCTION "${p}search_text_update"() RETURNS trigger LANGUAGE plpgsql AS $loupe$
      BEGIN
        UPDATE "${p}search_text" SET haystack = ${searchHaystack('NEW')} WHERE group_id = NEW.id;
        RETURN NULL;
      END
      $loupe$`,
    `DROP TRIGGER IF EXISTS "${p}search_text_update" ON "${p}error_groups"`,
    `CREATE TRIGGER "${p}search_text_update" AFTER UPDATE OF title, sample_message, exception_class, source_frame ON "${p}error_groups"
      FOR EACH ROW WHEN (${searchHaystack('OLD')} IS DISTINCT FROM ${searchHaystack('NEW')}) EXECUTE FUNCTION "${p}search_text_update"()`,
    `INSERT INTO "${p}search_text" (group_id, haystack) SELECT g.id, ${searchHaystack('g')} FROM "${p}error_groups" g
      ON CONFLICT (group_id) DO UPDATE SET haystack = EXCLUDED.haystack`,
  ],
}
