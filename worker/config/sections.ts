import { DEFAULT_CAPTURE_LIMIT } from '../digest/parse-log.ts'
import { DEFAULT_BATCH_LIMITS } from '../digest/persist/batch-payload.ts'
import { DEFAULT_MESSAGE_LIMIT } from '../digest/persist/event-record.ts'
import { defineSection, integerSetting } from './config-section.ts'

const MiB = 1024 * 1024

/** `ingestion.*`: how much an import may do and how it cuts its work (docs/ingestion.md "Limits"). */
export const INGESTION_SECTION = defineSection('ingestion', {
  capture_limit: integerSetting(1024, 16 * MiB, DEFAULT_CAPTURE_LIMIT),
  message_limit: integerSetting(100, 1_000_000, DEFAULT_MESSAGE_LIMIT),
  import_batch_events: integerSetting(1, 10_000, DEFAULT_BATCH_LIMITS.maxEvents),
  /** Bytes of log one HTTP request reads before handing the rest to a background job. */
  request_budget_bytes: integerSetting(64 * 1024, 1024 * MiB, 16 * MiB),
  /** Bytes of log one queue message reads before re-enqueueing itself. */
  job_budget_bytes: integerSetting(64 * 1024, 16 * 1024 * MiB, 256 * MiB),
  /** Failed attempts after which a file is set aside instead of blocking the application's other files. */
  max_file_attempts: integerSetting(1, 100, 3),
})

/** `retention.*` (reference §3.6): every rule 0 (off) by default. */
export const RETENTION_SECTION = defineSection('retention', {
  occurrences_max_age_days: integerSetting(0, 36_500, 0),
  max_occurrences_per_group: integerSetting(0, 100_000_000, 0),
  processed_max_age_days: integerSetting(0, 36_500, 0),
  processed_max_files: integerSetting(0, 100_000_000, 0),
})

/** `database.*`. Ten seconds: well above a healthy call (an 8000-event import batch takes about a second on PlanetScale). */
export const DATABASE_SECTION = defineSection('database', {
  /** Deadline of every database call: past it the call fails, the request answers 503 and `health` says `timeout`. */
  timeout_ms: integerSetting(100, 300_000, 10_000),
})

/** `limits.*`. */
export const LIMITS_SECTION = defineSection('limits', {
  /** Largest JSON request body accepted. */
  max_body_bytes: integerSetting(1024, 100 * MiB, MiB),
})

/**
 * `dashboard.*` (issue 17 item 10). `stale_after_hours`: with no event for longer than this, the dashboard shows
 * a "nothing has arrived" warning (a log shipper that died looks exactly like a quiet day otherwise). Sent to
 * the dashboard inside `summary`, so it costs no request of its own.
 */
export const DASHBOARD_SECTION = defineSection('dashboard', {
  stale_after_hours: integerSetting(1, 8760, 24),
})
