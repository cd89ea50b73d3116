import { SEVERITIES, type Severity } from '../../shared/constants.ts'
import type { FileImportResult, ImportResult } from '../../shared/api.ts'

export type { FileImportResult, ImportResult }

export function emptyResult(severities: readonly Severity[]): ImportResult {
  return { files: 0, events: 0, groups: 0, skipped: 0, processed: 0, ingested_severities: [...severities], by_type: {}, errors: [], file_results: [] }
}

/** Adds `events` under a log type (0 still lists the type, as the reference does for skipped files). */
export function addByType(result: ImportResult, logType: string, events: number): void {
  result.by_type[logType] = (result.by_type[logType] ?? 0) + events
}

/** A file's counts before anything is read. */
export function emptyFileResult(path: string, format: string): FileImportResult {
  return { path, format, read: 0, stored: 0, skipped: {}, already_stored: 0, unparseable: 0 }
}

/** Adds one file's counts to the result, summed into the entry of the same path when there is one. */
export function addFileResult(result: ImportResult, file: FileImportResult): void {
  const known = result.file_results.find((entry) => entry.path === file.path)
  if (known === undefined) result.file_results.push(copyFileResult(file))
  else sumInto(known, file)
}

/** The result as sent: `by_type` keys sorted (the reference ksorts), each file's `skipped` in severity order. */
export function presentResult(result: ImportResult): ImportResult {
  const byType = Object.fromEntries(Object.entries(result.by_type).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  const files = (result.file_results ?? []).map((file) => ({ ...file, skipped: inSeverityOrder(file.skipped) }))
  return { ...result, by_type: byType, file_results: files }
}

function inSeverityOrder(skipped: FileImportResult['skipped']): FileImportResult['skipped'] {
  const ordered: FileImportResult['skipped'] = {}
  for (const level of SEVERITIES) if (skipped[level] !== undefined) ordered[level] = skipped[level]
  return ordered
}

/**
 * Adds a later part of the same import (a job's next message) to what was done before. A file read across
 * several messages is one `file_results` entry with the counts summed. A stored result from before
 * `file_results` existed merges as if it had none.
 */
export function mergeResults(into: ImportResult, part: ImportResult): ImportResult {
  const merged = {
    ...into,
    by_type: { ...into.by_type },
    errors: [...into.errors, ...part.errors],
    file_results: (into.file_results ?? []).map(copyFileResult),
  }
  for (const key of ['files', 'events', 'groups', 'skipped', 'processed'] as const) merged[key] += part[key]
  for (const [type, events] of Object.entries(part.by_type)) merged.by_type[type] = (merged.by_type[type] ?? 0) + events
  for (const file of part.file_results ?? []) addFileResult(merged, file)
  merged.ingested_severities = part.ingested_severities
  return merged
}

function copyFileResult(file: FileImportResult): FileImportResult {
  return { ...file, skipped: { ...file.skipped } }
}

function sumInto(into: FileImportResult, file: FileImportResult): void {
  into.format = file.format
  into.read += file.read
  into.stored += file.stored
  into.already_stored += file.already_stored
  into.unparseable += file.unparseable
  for (const [level, count] of Object.entries(file.skipped) as [Severity, number][]) into.skipped[level] = (into.skipped[level] ?? 0) + count
}
