import type { Migration } from '../migration.ts'

/** Migration 0001 (registry): the application registry, with `default` always present (design.md §2). */
export const registry0001: Migration = {
  version: 1,
  name: 'registry',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS loupe_applications (
      id VARCHAR(64) COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
      name VARCHAR(200) NOT NULL,
      namespace INT NOT NULL UNIQUE,
      created_at VARCHAR(19) NOT NULL
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
    `INSERT INTO loupe_applications (id, name, namespace, created_at)
      VALUES ('default', 'Primary application', 1, DATE_FORMAT(UTC_TIMESTAMP(), '%Y-%m-%d %H:%i:%s'))
      ON DUPLICATE KEY UPDATE id = id`,
  ],
}
