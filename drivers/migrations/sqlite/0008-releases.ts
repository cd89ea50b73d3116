import type { Migration } from '../migration.ts'

/**
 * Migration 0008 (application): release tracking (reference §4.4, issue 14, docs/releases.md).
 * - `deploys`: the reference's `releases` table (recorded deploys), unique on (version, environment).
 * - `releases`: every version an ingested event named (Loupe's addition, registered by the digest), with
 *   when it was first and last seen.
 * - `source_maps`: metadata of uploaded maps, unique on (release, file basename); the map bytes live in the
 *   log bucket under `object_key` (issue 14: not in the database).
 * - `group_releases`: per issue, the release it was first seen in and the release it regressed in. A table of
 *   its own rather than `error_groups` columns: `ALTER TABLE … ADD COLUMN` is not idempotent on SQLite or
 *   MySQL 8 (migration.ts).
 * - `release_groups`: which issues have an occurrence naming a release — the reference's `issue_count` and
 *   the issues of a release without an index on `occurrences.release` (MySQL cannot add one idempotently).
 */
export const application0008: Migration = {
  version: 8,
  name: 'releases',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}deploys" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      version TEXT NOT NULL,
      environment TEXT NOT NULL,
      ref TEXT,
      notes TEXT,
      deployed_at TEXT NOT NULL,
      created_at TEXT NOT NULL,
      UNIQUE (version, environment)
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}deploys_deployed_at" ON "${p}deploys" (deployed_at)`,
    `CREATE TABLE IF NOT EXISTS "${p}releases" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      version TEXT NOT NULL UNIQUE,
      first_seen TEXT NOT NULL,
      last_seen TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE TABLE IF NOT EXISTS "${p}source_maps" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      "release" TEXT NOT NULL,
      file TEXT NOT NULL,
      size INTEGER NOT NULL,
      object_key TEXT NOT NULL,
      created_at TEXT NOT NULL,
      UNIQUE ("release", file)
    )`,
    `CREATE TABLE IF NOT EXISTS "${p}group_releases" (
      group_id INTEGER PRIMARY KEY REFERENCES "${p}error_groups" (id) ON DELETE CASCADE,
      first_release TEXT NOT NULL,
      regressed_release TEXT,
      regressed_at TEXT
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}group_releases_first" ON "${p}group_releases" (first_release)`,
    `CREATE INDEX IF NOT EXISTS "${p}group_releases_regressed" ON "${p}group_releases" (regressed_release)`,
    `CREATE TABLE IF NOT EXISTS "${p}release_groups" (
      "release" TEXT NOT NULL,
      group_id INTEGER NOT NULL REFERENCES "${p}error_groups" (id) ON DELETE CASCADE,
      PRIMARY KEY ("release", group_id)
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}release_groups_group" ON "${p}release_groups" (group_id)`,
  ],
}
