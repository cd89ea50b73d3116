import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'

/**
 * Migration 0011 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number. Remote
 * paths and mirror keys are at most 600 characters (reference §1 `source_streams`), compared byte for byte.
 */
export const application0011: Migration = {
  version: 11,
  name: 'connectors',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}connectors\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      name VARCHAR(100) NOT NULL,
      name_key VARCHAR(100) COLLATE utf8mb4_bin NOT NULL UNIQUE,
      type VARCHAR(20) NOT NULL,
      enabled INT NOT NULL DEFAULT 1,
      module_id BIGINT,
      config_json TEXT NOT NULL,
      secret_sealed TEXT,
      secret_hint VARCHAR(500),
      sync_interval_minutes INT,
      last_synced_at VARCHAR(19),
      last_status VARCHAR(20),
      last_error VARCHAR(4000),
      created_at VARCHAR(19) NOT NULL,
      updated_at VARCHAR(19),
      FOREIGN KEY (module_id) REFERENCES \`${p}modules\` (id) ON DELETE SET NULL
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}source_streams\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      connector_id BIGINT NOT NULL,
      module_id BIGINT,
      remote_path VARCHAR(600) COLLATE utf8mb4_bin NOT NULL,
      remote_identity VARCHAR(300) COLLATE utf8mb4_bin NOT NULL,
      generation INT NOT NULL DEFAULT 1,
      local_path VARCHAR(600) COLLATE utf8mb4_bin NOT NULL UNIQUE,
      source_file_id BIGINT,
      remote_size BIGINT NOT NULL DEFAULT 0,
      fetched_offset BIGINT NOT NULL DEFAULT 0,
      remote_modified_at VARCHAR(19),
      prefix_hash VARCHAR(64),
      last_synced_at VARCHAR(19),
      created_at VARCHAR(19) NOT NULL,
      UNIQUE KEY \`${p}source_streams_generation\` (connector_id, remote_path, generation),
      FOREIGN KEY (connector_id) REFERENCES \`${p}connectors\` (id) ON DELETE CASCADE,
      FOREIGN KEY (module_id) REFERENCES \`${p}modules\` (id) ON DELETE SET NULL
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}connector_runs\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      connector_id BIGINT NOT NULL,
      status VARCHAR(20) NOT NULL,
      files_discovered INT NOT NULL DEFAULT 0,
      files_completed INT NOT NULL DEFAULT 0,
      files_updated INT NOT NULL DEFAULT 0,
      bytes_total BIGINT NOT NULL DEFAULT 0,
      bytes_fetched BIGINT NOT NULL DEFAULT 0,
      events_indexed BIGINT NOT NULL DEFAULT 0,
      current_file VARCHAR(600),
      expected_snapshot VARCHAR(64),
      message VARCHAR(4000),
      steps INT NOT NULL DEFAULT 0,
      started_at VARCHAR(19),
      updated_at VARCHAR(19) NOT NULL,
      finished_at VARCHAR(19),
      KEY \`${p}connector_runs_connector\` (connector_id, id),
      KEY \`${p}connector_runs_status\` (status),
      FOREIGN KEY (connector_id) REFERENCES \`${p}connectors\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
  ],
}
