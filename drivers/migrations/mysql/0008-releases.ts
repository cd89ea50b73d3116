import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'

/**
 * Migration 0008 (application), MySQL spelling of the SQLite migration of the same number. Versions and file
 * names compare byte for byte (`utf8mb4_bin`): `App.js` and `app.js` are different files.
 */
export const application0008: Migration = {
  version: 8,
  name: 'releases',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}deploys\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      version VARCHAR(120) COLLATE utf8mb4_bin NOT NULL,
      environment VARCHAR(120) COLLATE utf8mb4_bin NOT NULL,
      ref VARCHAR(200),
      notes TEXT,
      deployed_at VARCHAR(19) NOT NULL,
      created_at VARCHAR(19) NOT NULL,
      UNIQUE KEY \`${p}deploys_version_env\` (version, environment),
      KEY \`${p}deploys_deployed_at\` (deployed_at)
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}releases\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      version VARCHAR(120) COLLATE utf8mb4_bin NOT NULL UNIQUE,
      first_seen VARCHAR(19) NOT NULL,
      last_seen VARCHAR(19) NOT NULL,
      created_at VARCHAR(19) NOT NULL
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}source_maps\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      \`release\` VARCHAR(120) COLLATE utf8mb4_bin NOT NULL,
      file VARCHAR(300) COLLATE utf8mb4_bin NOT NULL,
      size BIGINT NOT NULL,
      object_key VARCHAR(600) NOT NULL,
      created_at VARCHAR(19) NOT NULL,
      UNIQUE KEY \`${p}source_maps_release_file\` (\`release\`, file)
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}group_releases\` (
      group_id BIGINT PRIMARY KEY,
      first_release VARCHAR(120) COLLATE utf8mb4_bin NOT NULL,
      regressed_release VARCHAR(120) COLLATE utf8mb4_bin,
      regressed_at VARCHAR(19),
      KEY \`${p}group_releases_first\` (first_release),
      KEY \`${p}group_releases_regressed\` (regressed_release),
      FOREIGN KEY (group_id) REFERENCES \`${p}error_groups\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}release_groups\` (
      \`release\` VARCHAR(120) COLLATE utf8mb4_bin NOT NULL,
      group_id BIGINT NOT NULL,
      PRIMARY KEY (\`release\`, group_id),
      KEY \`${p}release_groups_group\` (group_id),
      FOREIGN KEY (group_id) REFERENCES \`${p}error_groups\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
  ],
}
