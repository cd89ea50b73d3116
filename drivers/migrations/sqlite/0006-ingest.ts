import type { Migration } from '../migration.ts'

/**
 * Migration 0006 (application): HTTP and Sentry ingest (issue 12, docs/ingest.md).
 * - `ingest_events`: events accepted by `?api=ingest` or a Sentry endpoint, waiting for the digest (accept
 *   fast, digest in batches). A row's id becomes its occurrence's `byte_start` in the application's
 *   `http-ingest/…` source file, so digesting a row twice stores it once. Digested rows keep their
 *   `event_id` for a day (`digested_at`), which is how the same Sentry event sent twice is stored once.
 * - `ingest_rate`: the sliding-window counters (reference §4.3): events per fixed bucket, for the application
 *   (`scope` = `app`) and per client IP (`ip:<address>`).
 */
export const application0006: Migration = {
  version: 6,
  name: 'ingest',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}ingest_events" (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      event_id TEXT UNIQUE,
      payload TEXT NOT NULL,
      received_at TEXT NOT NULL,
      digested_at TEXT
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}ingest_events_pending" ON "${p}ingest_events" (digested_at, id)`,
    `CREATE TABLE IF NOT EXISTS "${p}ingest_rate" (
      scope TEXT NOT NULL,
      bucket INTEGER NOT NULL,
      count INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (scope, bucket)
    )`,
  ],
}
