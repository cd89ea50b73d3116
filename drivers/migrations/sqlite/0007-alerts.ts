import type { Migration } from '../migration.ts'

/**
 * Migration 0007 (application): alerting (reference §4.2, issue 13, docs/alerts.md).
 * - `alert_channels`: where alerts go; the URL is sealed with SERVICE_SECRET (`url_sealed`), only its host
 *   (`target_hint`) is ever shown.
 * - `alert_rules`: what fires; `last_triggered_at` is the cooldown's clock (set by a delivered alert).
 * - `alert_events`: one row per alert a scan produced. `scan_key` (rule, trigger and the cursor range or
 *   hour it covers) is unique, so a scan run twice claims each alert once; `claim` marks which run sends it;
 *   `payload` is what is (re)sent.
 */
export const application0007: Migration = {
  version: 7,
  name: 'alerts',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}alert_channels" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      type TEXT NOT NULL,
      url_sealed TEXT NOT NULL,
      target_hint TEXT NOT NULL,
      enabled INTEGER NOT NULL DEFAULT 1,
      created_at TEXT NOT NULL,
      updated_at TEXT
    )`,
    `CREATE TABLE IF NOT EXISTS "${p}alert_rules" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      channel_id INTEGER NOT NULL REFERENCES "${p}alert_channels" (id) ON DELETE CASCADE,
      trigger_type TEXT NOT NULL,
      severities TEXT NOT NULL DEFAULT '[]',
      module_id INTEGER REFERENCES "${p}modules" (id) ON DELETE SET NULL,
      min_count INTEGER NOT NULL DEFAULT 1,
      spike_factor REAL NOT NULL DEFAULT 3,
      cooldown_minutes INTEGER NOT NULL DEFAULT 60,
      enabled INTEGER NOT NULL DEFAULT 1,
      last_triggered_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT
    )`,
    `CREATE TABLE IF NOT EXISTS "${p}alert_events" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      rule_id INTEGER REFERENCES "${p}alert_rules" (id) ON DELETE SET NULL,
      channel_id INTEGER REFERENCES "${p}alert_channels" (id) ON DELETE SET NULL,
      trigger_type TEXT NOT NULL,
      scan_key TEXT NOT NULL UNIQUE,
      claim TEXT NOT NULL,
      status TEXT NOT NULL,
      summary TEXT NOT NULL,
      payload TEXT NOT NULL,
      detail TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      sent_at TEXT
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}alert_events_status" ON "${p}alert_events" (status, id)`,
  ],
}
