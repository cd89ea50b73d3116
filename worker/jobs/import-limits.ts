import { lookup } from '../config.ts'
import type { Deps } from '../deps.ts'
import { DEFAULT_CAPTURE_LIMIT } from '../digest/parse-log.ts'
import { DEFAULT_BATCH_LIMITS, type BatchLimits } from '../digest/persist/batch-payload.ts'
import { DEFAULT_MESSAGE_LIMIT } from '../digest/persist/event-record.ts'

/** How much an import may do and how it cuts its work (docs/ingestion.md "Limits"). */
export interface ImportLimits {
  readonly captureLimit: number
  readonly messageLimit: number
  readonly batch: BatchLimits
  /** Bytes of log one HTTP request reads before handing the rest to a background job. */
  readonly requestBudgetBytes: number
  /** Bytes of log one queue message reads before re-enqueueing itself. */
  readonly jobBudgetBytes: number
  /** Wall-clock seconds after which a request or job stops at the next chunk boundary. */
  readonly requestSeconds: number
  readonly jobSeconds: number
  /** Failed attempts after which a file is set aside instead of blocking the application's other files. */
  readonly maxFileAttempts: number
}

export const DEFAULT_MAX_FILE_ATTEMPTS = 3

const MiB = 1024 * 1024

/** Reads the `ingestion.*` keys of `SERVICE_CONFIG`; missing or invalid values fall back to the defaults. */
export function importLimits(deps: Pick<Deps, 'config'>): ImportLimits {
  const setting = (key: string, fallback: number, min: number, max: number) => {
    const value = lookup(deps.config.settings, key)
    return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback
  }
  return {
    captureLimit: setting('ingestion.capture_limit', DEFAULT_CAPTURE_LIMIT, 1024, 16 * MiB),
    messageLimit: setting('ingestion.message_limit', DEFAULT_MESSAGE_LIMIT, 100, 1_000_000),
    batch: { ...DEFAULT_BATCH_LIMITS, maxEvents: setting('ingestion.import_batch_events', DEFAULT_BATCH_LIMITS.maxEvents, 1, 10_000) },
    requestBudgetBytes: setting('ingestion.request_budget_bytes', 16 * MiB, 64 * 1024, 1024 * MiB),
    jobBudgetBytes: setting('ingestion.job_budget_bytes', 256 * MiB, 64 * 1024, 16 * 1024 * MiB),
    requestSeconds: 20,
    jobSeconds: 600,
    maxFileAttempts: setting('ingestion.max_file_attempts', DEFAULT_MAX_FILE_ATTEMPTS, 1, 100),
  }
}
