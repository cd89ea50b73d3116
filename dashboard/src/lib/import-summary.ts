import type { FileImportResult, ImportResult } from '../api/types.ts'
import { formatNumber, plural } from './format.ts'

/** "2 files, 37 events, 5 issue groups (1 skipped)" from an import result (reference §2.9). */
export function describeImport(result: ImportResult): string {
  const parts = [
    plural(Number(result.files ?? 0), 'file'),
    plural(Number(result.events ?? 0), 'event'),
    plural(Number(result.groups ?? 0), 'issue group'),
  ]
  const skipped = Number(result.skipped ?? 0)
  const errors = Array.isArray(result.errors) ? result.errors.length : 0
  return `${parts.join(', ')}${skipped ? ` (${skipped} skipped)` : ''}${errors ? `; ${plural(errors, 'error')}` : ''}`
}

/**
 * What one file's import did, so nothing is dropped without the user seeing it:
 * "read as laravel: 12 entries, 9 stored, 3 skipped (DEBUG 2, INFO 1), 1 line unparseable".
 */
export function describeFileResult(file: FileImportResult): string {
  const parts = [`read as ${file.format}: ${plural(file.read, 'entry', 'entries')}`, `${formatNumber(file.stored)} stored`]
  const skipped = Object.entries(file.skipped ?? {}) as [string, number][]
  const skippedTotal = skipped.reduce((sum, [, count]) => sum + count, 0)
  if (skippedTotal > 0) parts.push(`${formatNumber(skippedTotal)} skipped by severity (${skipped.map(([level, count]) => `${level} ${formatNumber(count)}`).join(', ')})`)
  if (file.already_stored > 0) parts.push(`${formatNumber(file.already_stored)} already stored`)
  if (file.unparseable > 0) parts.push(`${plural(file.unparseable, 'line')} unparseable`)
  return parts.join(', ')
}

/**
 * The per-file results of a request and of the background job that continued it, one entry per file: the
 * job's result holds only what its own messages read, so the request's part is added back.
 */
export function combineFileResults(first: readonly FileImportResult[], later: readonly FileImportResult[]): FileImportResult[] {
  const combined = first.map((file) => ({ ...file, skipped: { ...file.skipped } }))
  for (const file of later) {
    const known = combined.find((entry) => entry.path === file.path)
    if (!known) {
      combined.push({ ...file, skipped: { ...file.skipped } })
      continue
    }
    known.format = file.format
    known.read += file.read
    known.stored += file.stored
    known.already_stored += file.already_stored
    known.unparseable += file.unparseable
    for (const [level, count] of Object.entries(file.skipped) as [keyof FileImportResult['skipped'], number][]) known.skipped[level] = (known.skipped[level] ?? 0) + count
  }
  return combined
}
