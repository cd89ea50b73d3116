import type { Migration } from '../migration.ts'

/**
 * Migration 0011 (application): connectors (reference §1 `connectors`, `source_streams`, `connector_sync_runs`;
 * issue 15, docs/connectors.md).
 * - `connectors`: one remote source. `name_key` (the lower-cased name) is unique: names are unique case-insensitively
 *   on every engine. `config_json` holds the type's public settings; `secret_sealed` its credentials, sealed with
 *   SERVICE_SECRET and never returned. `sync_interval_minutes` (null: manual only) drives the cron trigger.
 * - `source_streams`: one row per remote file generation mirrored into `sources/…`; `fetched_offset` is how much
 *   of it the mirror holds, `source_file_id` the archived file the import reads.
 * - `connector_runs`: one row per synchronization, with its progress counters.
 */
export const application0011: Migration = {
  version: 11,
  name: 'connectors',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}connectors" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      name_key TEXT NOT NULL UNIQUE,
      type TEXT NOT NULL,
      enabled INTEGER NOT NULL DEFAULT 1,
      module_id INTEGER REFERENCES "${p}modules" (id) ON DELETE SET NULL,
      config_json TEXT NOT NULL,
      secret_sealed TEXT,
      secret_hint TEXT,
      sync_interval_minutes INTEGER,
      last_synced_at TEXT,
      last_status TEXT,
      last_error TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT
    )`,
    `CREATE TABLE IF NOT EXISTS "${p}source_streams" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      connector_id INTEGER NOT NULL REFERENCES "${p}connectors" (id) ON DELETE CASCADE,
      module_id INTEGER REFERENCES "${p}modules" (id) ON DELETE SET NULL,
      remote_path TEXT NOT NULL,
      remote_identity TEXT NOT NULL,
      generation INTEGER NOT NULL DEFAULT 1,
      local_path TEXT NOT NULL UNIQUE,
      source_file_id INTEGER,
      remote_size INTEGER NOT NULL DEFAULT 0,
      fetched_offset INTEGER NOT NULL DEFAULT 0,
      remote_modified_at TEXT,
      prefix_hash TEXT,
      last_synced_at TEXT,
      created_at TEXT NOT NULL,
      UNIQUE (connector_id, remote_path, generation)
    )`,
    `CREATE TABLE IF NOT EXISTS "${p}connector_runs" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      connector_id INTEGER NOT NULL REFERENCES "${p}connectors" (id) ON DELETE CASCADE,
      status TEXT NOT NULL,
      files_discovered INTEGER NOT NULL DEFAULT 0,
      files_completed INTEGER NOT NULL DEFAULT 0,
      files_updated INTEGER NOT NULL DEFAULT 0,
      bytes_total INTEGER NOT NULL DEFAULT 0,
      bytes_fetched INTEGER NOT NULL DEFAULT 0,
      events_indexed INTEGER NOT NULL DEFAULT 0,
      current_file TEXT,
      expected_snapshot TEXT,
      message TEXT,
      steps INTEGER NOT NULL DEFAULT 0,
      started_at TEXT,
      updated_at TEXT NOT NULL,
      finished_at TEXT
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}connector_runs_connector" ON "${p}connector_runs" (connector_id, id)`,
    `CREATE INDEX IF NOT EXISTS "${p}connector_runs_status" ON "${p}connector_runs" (status)`,
  ],
}
