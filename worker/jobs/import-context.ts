import type { AlreadyIngested } from '../../shared/api.ts'
import type { Severity } from '../../shared/constants.ts'
import type { AppScope } from '../apps/app-scope.ts'
import type { ImportLimits } from './import-limits.ts'
import type { FailureRow } from './failed-files.ts'
import type { ImportResult } from './import-result.ts'
import type { PluginSettings } from '../plugins/plugin-settings.ts'
import type { LogStore } from '../intake/log-store.ts'

/** What one import run (a request, or one queue message of a job) works with. */
export interface ImportContext {
  readonly scope: AppScope
  readonly logs: LogStore
  /** The current time, read afresh for every timestamp written. */
  readonly now: () => Date
  readonly severities: readonly Severity[]
  readonly allowed: ReadonlySet<string>
  /** `importVersion(severities)`: files read under another version are read again from byte 0. */
  readonly version: number
  readonly limits: ImportLimits
  /** Accumulates the run's result. */
  readonly result: ImportResult
  /** The ids of the files this run handled (`result.files` counts each once). */
  readonly touched: Set<number>
  /** Files that arrived with content another file already holds (reference §6 `already_ingested`). */
  readonly alreadyIngested: AlreadyIngested[]
  /** The application's failure rows by `ref`, read at the start of the run and kept current by it. */
  readonly failures: Map<string, FailureRow>
  /** Called as work advances (throttled by the callee): job progress rows and lock renewal. */
  /** Switches and failures of the plugins with an `afterIngest` hook, read with the run's settings; null when none has one. */
  readonly pluginSettings: PluginSettings | null
  readonly progress: (update: ProgressUpdate) => Promise<void>
}

export interface ProgressUpdate {
  /** Log bytes read by this run so far. */
  readonly bytes: number
  readonly file: string
  /** True at a file boundary (always reported); false mid-file (may be throttled). */
  readonly boundary: boolean
}

/** How much of the run's work is left. */
export interface Budget {
  /** Bytes still allowed. */
  bytes: number
  /** Bytes allowed at the start (so `initial - bytes` is what the run has read). */
  readonly initial: number
  /** `Date.now()` after which the run stops at the next chunk boundary. */
  readonly deadline: number
}

export function createBudget(bytes: number, seconds: number): Budget {
  return { bytes, initial: bytes, deadline: Date.now() + seconds * 1000 }
}

export function budgetExhausted(budget: Budget): boolean {
  return budget.bytes <= 0 || Date.now() >= budget.deadline
}
