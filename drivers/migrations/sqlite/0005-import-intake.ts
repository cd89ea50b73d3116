import type { Migration } from '../migration.ts'

/**
 * Migration 0005 (application): what keeps an import from losing or double-counting a file
 * (docs/ingestion.md "Intake").
 * - `file_contents`: the SHA-256 of each archived file's whole content, computed while the archive copy
 *   streams through the worker, so the same bytes arriving under another name are recognised as already
 *   imported (reference §6 `already_ingested`) instead of being counted twice.
 * - `import_failures`: files (`file:<source id>`) and R2 objects (`object:<sha256 of key>`) whose import threw,
 *   with their attempts and last error; one that reaches `ingestion.max_file_attempts` is set aside
 *   (`failed_at`) so it no longer blocks the application's other files.
 * Both are new tables rather than new columns (migration.ts: ADD COLUMN cannot be made idempotent).
 */
export const application0005: Migration = {
  version: 5,
  name: 'import-intake',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}file_contents" (
      source_file_id INTEGER PRIMARY KEY REFERENCES "${p}source_files" (id) ON DELETE CASCADE,
      sha256 TEXT NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}file_contents_sha256" ON "${p}file_contents" (sha256)`,
    `CREATE TABLE IF NOT EXISTS "${p}import_failures" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      ref TEXT NOT NULL UNIQUE,
      source_file_id INTEGER,
      path TEXT NOT NULL,
      etag TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      error TEXT NOT NULL,
      failed_at TEXT,
      updated_at TEXT NOT NULL
    )`,
  ],
}
