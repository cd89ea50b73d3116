import type { Migration } from '../migration.ts'

/**
 * Migration 0002 (application): the state of log ingestion on the edge (docs/ingestion.md).
 * - `file_imports`: per archived file, where its import stands — the resumable byte checkpoint
 *   (`next_offset`, `inside_event`), what the file looked like when registered (`etag`, `prefix_hash` of its
 *   first 64 KiB, the parser chosen at offset 0), the incoming path it arrived under (its identity across
 *   re-uploads) and a maintained `occurrence_count`. A separate table rather than new `source_files` columns
 *   because `ALTER TABLE … ADD COLUMN` cannot be made idempotent on SQLite or MySQL 8, and migrations must
 *   survive two isolates applying them at once (migration.ts).
 * - `import_jobs`: background imports (Queue consumer) and the progress the API reports.
 * - `affected_refs`: scratch rows that let one atomic batch remember which issues and files a deletion
 *   touched, so their aggregates are recomputed for those rows only; each batch deletes its own rows.
 */
export const application0002: Migration = {
  version: 2,
  name: 'ingestion',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}file_imports" (
      source_file_id INTEGER PRIMARY KEY REFERENCES "${p}source_files" (id) ON DELETE CASCADE,
      origin_path TEXT UNIQUE,
      etag TEXT,
      prefix_hash TEXT,
      parser_id TEXT,
      next_offset INTEGER NOT NULL DEFAULT 0,
      inside_event INTEGER NOT NULL DEFAULT 0,
      occurrence_count INTEGER NOT NULL DEFAULT 0,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE IF NOT EXISTS "${p}import_jobs" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL,
      status TEXT NOT NULL,
      files_total INTEGER NOT NULL DEFAULT 0,
      files_done INTEGER NOT NULL DEFAULT 0,
      bytes_total INTEGER NOT NULL DEFAULT 0,
      bytes_done INTEGER NOT NULL DEFAULT 0,
      events INTEGER NOT NULL DEFAULT 0,
      current_file TEXT,
      message TEXT,
      result TEXT,
      created_at TEXT NOT NULL,
      started_at TEXT,
      updated_at TEXT NOT NULL,
      finished_at TEXT
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}import_jobs_status" ON "${p}import_jobs" (status, updated_at)`,
    `CREATE TABLE IF NOT EXISTS "${p}affected_refs" (
      token TEXT NOT NULL,
      kind TEXT NOT NULL,
      ref_id INTEGER NOT NULL,
      PRIMARY KEY (token, kind, ref_id)
    )`,
  ],
}
