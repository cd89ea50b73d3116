import type { Deps } from '../deps.ts'
import { DEFAULT_BATCH_LIMITS, type BatchLimits } from '../digest/persist/batch-payload.ts'

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

/** The import's limits from the configuration's `ingestion` section (validated there, with warnings). */
export function importLimits(deps: Pick<Deps, 'config'>): ImportLimits {
  const ingestion = deps.config.ingestion
  return {
    captureLimit: ingestion.capture_limit,
    messageLimit: ingestion.message_limit,
    batch: { ...DEFAULT_BATCH_LIMITS, maxEvents: ingestion.import_batch_events },
    requestBudgetBytes: ingestion.request_budget_bytes,
    jobBudgetBytes: ingestion.job_budget_bytes,
    requestSeconds: 20,
    jobSeconds: 600,
    maxFileAttempts: ingestion.max_file_attempts,
  }
}
