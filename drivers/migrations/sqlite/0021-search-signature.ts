import type { Migration } from '../migration.ts'

const WORDS = [0, 1, 2, 3, 4]
const UNKNOWN = WORDS.map(() => '-1').join(', ')

/**
 * Migration 0021 (application): each issue's trigram signature (worker/issues/search-signature.ts), five
 * integer words in a table of its own, so that `q` scans these narrow rows and tests only the issues whose
 * signature holds the needle's trigrams, instead of reading every issue's text (issue 18; docs/performance.md
 * "Search: trigram signatures"). An ordinary table: `wrangler d1 export` refuses FTS5 tables, not this.
 *
 * A table, not columns of `error_groups`: each `ALTER TABLE … ADD COLUMN` makes SQLite parse the whole schema
 * again, and a database holding many applications' namespaces (the test suites' do) paid five of those per
 * application — 400 ms of a 1.2 s migration at 80 namespaces, growing with each one. Nor an index on
 * `error_groups`: SQLite took it for every count that scans the issues (`source=` 62 → 407 ms at 100,000).
 *
 * Every issue has a row, kept by triggers, so a signature can never lag its text:
 * - a new issue gets -1 (every bit: "unknown", which admits every needle); its writer then stores the real one
 *   in the same batch. OR REPLACE: SQLite may reuse a deleted issue's id, and its row must not survive;
 * - an UPDATE that changes a searched column makes the row unknown; a writer that computes the new signature
 *   stores it after its update, in the same batch;
 * - a deleted issue's row goes with it (libSQL connections do not enforce cascades).
 * A writer that does not know about signatures therefore costs speed, never a missed issue. Existing issues
 * start unknown; the scheduled maintenance computes them (worker/issues/search-signature-backfill.ts).
 */
export const application0021: Migration = {
  version: 21,
  name: 'search-signature',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}search_signatures" (
      id INTEGER PRIMARY KEY,
      ${WORDS.map((word) => `w${word} INTEGER NOT NULL`).join(', ')}
    )`,
    `INSERT OR IGNORE INTO "${p}search_signatures" (id, ${WORDS.map((word) => `w${word}`).join(', ')}) SELECT id, ${UNKNOWN} FROM "${p}error_groups"`,
    `CREATE TRIGGER IF NOT EXISTS "${p}search_signature_new" AFTER INSERT ON "${p}error_groups" BEGIN
      INSERT OR REPLACE INTO "${p}search_signatures" (id, ${WORDS.map((word) => `w${word}`).join(', ')}) VALUES (new.id, ${UNKNOWN});
    END`,
    `CREATE TRIGGER IF NOT EXISTS "${p}search_signature_stale" AFTER UPDATE OF title, sample_message, exception_class, source_frame ON "${p}error_groups"
      WHEN new.title IS NOT old.title OR new.sample_message IS NOT old.sample_message OR new.exception_class IS NOT old.exception_class
        OR new.source_frame IS NOT old.source_frame
    BEGIN
      UPDATE "${p}search_signatures" SET ${WORDS.map((word) => `w${word} = -1`).join(', ')} WHERE id = new.id;
    END`,
    `CREATE TRIGGER IF NOT EXISTS "${p}search_signature_gone" AFTER DELETE ON "${p}error_groups" BEGIN
      DELETE FROM "${p}search_signatures" WHERE id = old.id;
    END`,
  ],
}
