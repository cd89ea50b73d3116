import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'

/**
 * Migration 0007 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number. A sealed
 * URL is at most 2,048 characters of URL plus the AES-GCM envelope; `scan_key` is ASCII.
 */
export const application0007: Migration = {
  version: 7,
  name: 'alerts',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}alert_channels\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      name VARCHAR(200) NOT NULL,
      type VARCHAR(20) NOT NULL,
      url_sealed TEXT NOT NULL,
      target_hint VARCHAR(300) NOT NULL,
      enabled INT NOT NULL DEFAULT 1,
      created_at VARCHAR(19) NOT NULL,
      updated_at VARCHAR(19)
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}alert_rules\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      name VARCHAR(200) NOT NULL,
      channel_id BIGINT NOT NULL,
      trigger_type VARCHAR(20) NOT NULL,
      severities TEXT NOT NULL,
      module_id BIGINT,
      min_count INT NOT NULL DEFAULT 1,
      spike_factor DOUBLE NOT NULL DEFAULT 3,
      cooldown_minutes INT NOT NULL DEFAULT 60,
      enabled INT NOT NULL DEFAULT 1,
      last_triggered_at VARCHAR(19),
      created_at VARCHAR(19) NOT NULL,
      updated_at VARCHAR(19),
      FOREIGN KEY (channel_id) REFERENCES \`${p}alert_channels\` (id) ON DELETE CASCADE,
      FOREIGN KEY (module_id) REFERENCES \`${p}modules\` (id) ON DELETE SET NULL
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}alert_events\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      rule_id BIGINT,
      channel_id BIGINT,
      trigger_type VARCHAR(20) NOT NULL,
      scan_key VARCHAR(190) COLLATE utf8mb4_bin NOT NULL UNIQUE,
      claim VARCHAR(64) COLLATE utf8mb4_bin NOT NULL,
      status VARCHAR(20) NOT NULL,
      summary VARCHAR(300) NOT NULL,
      payload MEDIUMTEXT NOT NULL,
      detail VARCHAR(500),
      attempts INT NOT NULL DEFAULT 0,
      created_at VARCHAR(19) NOT NULL,
      sent_at VARCHAR(19),
      KEY \`${p}alert_events_status\` (status, id),
      FOREIGN KEY (rule_id) REFERENCES \`${p}alert_rules\` (id) ON DELETE SET NULL,
      FOREIGN KEY (channel_id) REFERENCES \`${p}alert_channels\` (id) ON DELETE SET NULL
    ) ${TABLE_OPTIONS}`,
  ],
}
