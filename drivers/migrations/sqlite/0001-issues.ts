import type { Migration } from '../migration.ts'

/**
 * Migration 0001 (application): modules, source files, issues (error_groups), occurrences, status history,
 * tags, tag rules, tag assignments and settings — reference-behaviour.md §1.2, with two Loupe additions:
 * `name_key` columns (the JS-lower-cased name) carry case-insensitive uniqueness identically on every engine,
 * and `occurrences.occurred_day` is a plain column filled on insert rather than a generated one. Two
 * derived tables keep list filters and charts cheap at a million occurrences: `group_days` (occurrences per
 * issue per day: timelines, trends, the `date` filter) and `group_sources` (which files an issue occurred
 * in: the `source` and `q` filters). Whatever writes or deletes occurrences keeps them in step.
 * `occurrences.event_hash` and `release` have no index until something queries them: every occurrence index
 * costs import throughput (an `event_hash` index measured at about a fifth of a D1 import batch).
 */
export const application0001: Migration = {
  version: 1,
  name: 'issues',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}modules" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      name_key TEXT NOT NULL UNIQUE,
      slug TEXT NOT NULL UNIQUE,
      color TEXT NOT NULL DEFAULT '#6366f1',
      created_at TEXT NOT NULL
    )`,
    `CREATE TABLE IF NOT EXISTS "${p}source_files" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      path TEXT NOT NULL UNIQUE,
      size INTEGER NOT NULL DEFAULT 0,
      modified_at TEXT,
      last_offset INTEGER NOT NULL DEFAULT 0,
      imported_at TEXT,
      created_at TEXT NOT NULL,
      parser_version INTEGER NOT NULL DEFAULT 0,
      log_type TEXT NOT NULL DEFAULT 'laravel',
      channel TEXT,
      module_id INTEGER REFERENCES "${p}modules" (id) ON DELETE SET NULL,
      source_stream_id INTEGER
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}source_files_log_type" ON "${p}source_files" (log_type)`,
    `CREATE INDEX IF NOT EXISTS "${p}source_files_module" ON "${p}source_files" (module_id)`,
    `CREATE INDEX IF NOT EXISTS "${p}source_files_imported" ON "${p}source_files" (imported_at)`,
    `CREATE TABLE IF NOT EXISTS "${p}error_groups" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      fingerprint TEXT NOT NULL UNIQUE,
      severity TEXT NOT NULL,
      environment TEXT,
      title TEXT NOT NULL,
      exception_class TEXT,
      source_frame TEXT,
      count INTEGER NOT NULL DEFAULT 0,
      first_seen TEXT NOT NULL,
      last_seen TEXT NOT NULL,
      sample_message TEXT,
      sample_stack TEXT,
      sample_context TEXT,
      created_at TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'open',
      status_updated_at TEXT,
      log_type TEXT NOT NULL DEFAULT 'laravel',
      channel TEXT,
      origin TEXT NOT NULL DEFAULT 'ingested',
      kind TEXT NOT NULL DEFAULT 'error',
      module_id INTEGER REFERENCES "${p}modules" (id) ON DELETE SET NULL,
      external_source TEXT,
      external_id TEXT,
      external_url TEXT,
      assignee TEXT,
      assigned_to_id TEXT,
      assigned_to_label TEXT
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}groups_last_seen" ON "${p}error_groups" (last_seen DESC, count DESC)`,
    `CREATE INDEX IF NOT EXISTS "${p}groups_first_seen" ON "${p}error_groups" (first_seen, count DESC)`,
    `CREATE INDEX IF NOT EXISTS "${p}groups_count" ON "${p}error_groups" (count DESC, last_seen DESC)`,
    `CREATE INDEX IF NOT EXISTS "${p}groups_severity" ON "${p}error_groups" (severity)`,
    `CREATE INDEX IF NOT EXISTS "${p}groups_status" ON "${p}error_groups" (status)`,
    `CREATE INDEX IF NOT EXISTS "${p}groups_log_type" ON "${p}error_groups" (log_type)`,
    `CREATE INDEX IF NOT EXISTS "${p}groups_origin" ON "${p}error_groups" (origin)`,
    `CREATE INDEX IF NOT EXISTS "${p}groups_kind" ON "${p}error_groups" (kind)`,
    `CREATE INDEX IF NOT EXISTS "${p}groups_module" ON "${p}error_groups" (module_id)`,
    `CREATE INDEX IF NOT EXISTS "${p}groups_external" ON "${p}error_groups" (external_source, external_id)`,
    `CREATE TABLE IF NOT EXISTS "${p}occurrences" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      group_id INTEGER NOT NULL REFERENCES "${p}error_groups" (id) ON DELETE CASCADE,
      source_file_id INTEGER NOT NULL REFERENCES "${p}source_files" (id) ON DELETE CASCADE,
      exact_fingerprint TEXT,
      occurred_at TEXT NOT NULL,
      occurred_day TEXT NOT NULL,
      severity TEXT NOT NULL,
      environment TEXT,
      byte_start INTEGER NOT NULL,
      byte_end INTEGER NOT NULL,
      context_preview TEXT,
      event_hash TEXT,
      "release" TEXT,
      import_batch TEXT,
      UNIQUE (source_file_id, byte_start)
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}occurrences_group_time" ON "${p}occurrences" (group_id, occurred_at DESC)`,
    `CREATE INDEX IF NOT EXISTS "${p}occurrences_time" ON "${p}occurrences" (occurred_at DESC)`,
    `CREATE INDEX IF NOT EXISTS "${p}occurrences_day" ON "${p}occurrences" (occurred_day, group_id)`,
    `CREATE TABLE IF NOT EXISTS "${p}group_days" (
      group_id INTEGER NOT NULL REFERENCES "${p}error_groups" (id) ON DELETE CASCADE,
      day TEXT NOT NULL,
      count INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (group_id, day)
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}group_days_day" ON "${p}group_days" (day, group_id)`,
    `CREATE TABLE IF NOT EXISTS "${p}group_sources" (
      group_id INTEGER NOT NULL REFERENCES "${p}error_groups" (id) ON DELETE CASCADE,
      source_file_id INTEGER NOT NULL REFERENCES "${p}source_files" (id) ON DELETE CASCADE,
      PRIMARY KEY (group_id, source_file_id)
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}group_sources_file" ON "${p}group_sources" (source_file_id, group_id)`,
    `CREATE TABLE IF NOT EXISTS "${p}issue_status_history" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      group_id INTEGER NOT NULL REFERENCES "${p}error_groups" (id) ON DELETE CASCADE,
      from_status TEXT,
      to_status TEXT NOT NULL,
      note TEXT,
      created_at TEXT NOT NULL,
      actor TEXT
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}status_history_group" ON "${p}issue_status_history" (group_id, created_at DESC)`,
    `CREATE TABLE IF NOT EXISTS "${p}tags" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      name_key TEXT NOT NULL UNIQUE,
      color TEXT NOT NULL DEFAULT '#64748b',
      icon TEXT NOT NULL DEFAULT 'tag',
      created_at TEXT NOT NULL,
      updated_at TEXT,
      created_by TEXT,
      updated_by TEXT
    )`,
    `CREATE TABLE IF NOT EXISTS "${p}tag_rules" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      tag_id INTEGER NOT NULL REFERENCES "${p}tags" (id) ON DELETE CASCADE,
      match_word TEXT NOT NULL,
      enabled INTEGER NOT NULL DEFAULT 1,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}tag_rules_tag" ON "${p}tag_rules" (tag_id)`,
    `CREATE TABLE IF NOT EXISTS "${p}error_group_tags" (
      group_id INTEGER NOT NULL REFERENCES "${p}error_groups" (id) ON DELETE CASCADE,
      tag_id INTEGER NOT NULL REFERENCES "${p}tags" (id) ON DELETE CASCADE,
      source TEXT NOT NULL DEFAULT 'manual',
      created_at TEXT NOT NULL,
      PRIMARY KEY (group_id, tag_id)
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}error_group_tags_tag" ON "${p}error_group_tags" (tag_id)`,
    `CREATE TABLE IF NOT EXISTS "${p}app_settings" (
      "key" TEXT PRIMARY KEY,
      value TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
  ],
}
