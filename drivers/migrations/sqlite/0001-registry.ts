import type { Migration } from '../migration.ts'

/** Migration 0001 (registry): the application registry, with `default` always present (design.md §2). */
export const registry0001: Migration = {
  version: 1,
  name: 'registry',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS loupe_applications (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      namespace INTEGER NOT NULL UNIQUE,
      created_at TEXT NOT NULL
    )`,
    `INSERT OR IGNORE INTO loupe_applications (id, name, namespace, created_at)
      VALUES ('default', 'Primary application', 1, strftime('%Y-%m-%d %H:%M:%S', 'now'))`,
  ],
}
