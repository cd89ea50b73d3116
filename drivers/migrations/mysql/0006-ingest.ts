import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'

/**
 * Migration 0006 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number. The
 * payload is MEDIUMTEXT (an event is capped well below 16 MiB); `scope` holds `app` or `ip:` + an IPv6 address.
 */
export const application0006: Migration = {
  version: 6,
  name: 'ingest',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}ingest_events\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      event_id VARCHAR(32) COLLATE utf8mb4_bin UNIQUE,
      payload MEDIUMTEXT NOT NULL,
      received_at VARCHAR(19) NOT NULL,
      digested_at VARCHAR(19),
      KEY \`${p}ingest_events_pending\` (digested_at, id)
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}ingest_rate\` (
      scope VARCHAR(60) COLLATE utf8mb4_bin NOT NULL,
      bucket BIGINT NOT NULL,
      count INT NOT NULL DEFAULT 0,
      PRIMARY KEY (scope, bucket)
    ) ${TABLE_OPTIONS}`,
  ],
}
