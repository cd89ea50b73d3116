import type { Migration } from '../migration.ts'

const WORDS = [0, 1, 2, 3, 4]

/**
 * Migration 0021 (application): each issue's trigram signature (worker/issues/search-signature.ts), five
 * integer columns in one covering index, so that `q` reads that index and tests only the issues whose
 * signature holds the needle's trigrams, instead of reading every issue's text (issue 18; docs/performance.md
 * "Search: trigram signatures"). An ordinary index: `wrangler d1 export` refuses FTS5 tables, not this.
 *
 * -1 (every bit) is "unknown": it matches every needle. It is the default, so every existing issue and every
 * row written by code that does not compute a signature is still found; the scheduled maintenance computes
 * the unknown ones (worker/issues/search-signature-backfill.ts).
 *
 * A signature must never lag its text, or a search silently misses the issue. The trigger makes that a
 * property of the schema, not of every writer: an UPDATE that changes a searched column and leaves all five
 * words as they were marks the row unknown. Writers that compute the signature flip its written bit
 * (search-signature.ts), so their new signature always differs from the old one, even when the new text sets
 * the same trigram bits.
 */
export const application0021: Migration = {
  version: 21,
  name: 'search-signature',
  statements: (p) => [
    ...WORDS.map((word) => `ALTER TABLE "${p}error_groups" ADD COLUMN search_sig${word} INTEGER NOT NULL DEFAULT -1`),
    // Partial, over every row (words are -1 or ≥ 0): only a query that names the condition may use it. As a
    // plain index SQLite took it for every count that scans the issues (the narrowest covering index), whose
    // ids it yields in random order — each probe of the issue's other rows then a random read: `source=` over
    // 100,000 issues went from 62 to 407 ms.
    `CREATE INDEX IF NOT EXISTS "${p}groups_search_sig" ON "${p}error_groups" (${WORDS.map((word) => `search_sig${word}`).join(', ')}) WHERE search_sig4 >= -1`,
    `CREATE TRIGGER IF NOT EXISTS "${p}groups_search_sig_stale" AFTER UPDATE OF title, sample_message, exception_class, source_frame ON "${p}error_groups"
      WHEN (new.title IS NOT old.title OR new.sample_message IS NOT old.sample_message OR new.exception_class IS NOT old.exception_class
          OR new.source_frame IS NOT old.source_frame)
        AND ${WORDS.map((word) => `new.search_sig${word} = old.search_sig${word}`).join(' AND ')} AND new.search_sig0 <> -1
    BEGIN
      UPDATE "${p}error_groups" SET ${WORDS.map((word) => `search_sig${word} = -1`).join(', ')} WHERE id = new.id;
    END`,
  ],
  appliedProbe: (p) => `SELECT 1 AS applied FROM pragma_table_info('${p}error_groups') WHERE name = 'search_sig0'`,
}
