import type { ImportResult } from '../api/types.ts'
import { plural } from './format.ts'

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
