import type { Severity } from '../../shared/constants.ts'
import type { ImportResult } from '../../shared/api.ts'

export type { ImportResult }


export function emptyResult(severities: readonly Severity[]): ImportResult {
  return { files: 0, events: 0, groups: 0, skipped: 0, processed: 0, ingested_severities: [...severities], by_type: {}, errors: [] }
}

/** Adds `events` under a log type (0 still lists the type, as the reference does for skipped files). */
export function addByType(result: ImportResult, logType: string, events: number): void {
  result.by_type[logType] = (result.by_type[logType] ?? 0) + events
}

/** The result as sent: `by_type` keys sorted (the reference ksorts). */
export function presentResult(result: ImportResult): ImportResult {
  const byType = Object.fromEntries(Object.entries(result.by_type).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  return { ...result, by_type: byType }
}

/** Adds a later part of the same import (a job's next message) to what was done before. */
export function mergeResults(into: ImportResult, part: ImportResult): ImportResult {
  const merged = { ...into, by_type: { ...into.by_type }, errors: [...into.errors, ...part.errors] }
  for (const key of ['files', 'events', 'groups', 'skipped', 'processed'] as const) merged[key] += part[key]
  for (const [type, events] of Object.entries(part.by_type)) merged.by_type[type] = (merged.by_type[type] ?? 0) + events
  merged.ingested_severities = part.ingested_severities
  return merged
}
