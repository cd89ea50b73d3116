import type { DeletionPreview, DeletionSource } from '../../shared/api.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { readRow } from '../../drivers/read-row.ts'
import type { SqlValue } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { InvalidInputError } from '../errors.ts'
import { deleteOccurrences } from '../digest/persist/delete-occurrences.ts'
import { withImportLock } from '../jobs/import-lock.ts'
import { isCalendarDate } from '../time.ts'

/** The confirmation `delete-logs` requires, typed exactly (reference §3.6). */
export const LOG_DELETION_CONFIRMATION = 'DELETE LOGS'
export const DELETION_MESSAGES = {
  scope: 'Choose exactly one deletion scope: date or source_id.',
  date: 'Deletion date must use YYYY-MM-DD.',
  sourceId: 'source_id must be a positive integer.',
  confirmation: 'Type DELETE LOGS exactly to confirm scoped log deletion.',
} as const

export interface DeletionInput {
  readonly date?: unknown
  readonly source_id?: unknown
}



/** `GET ?api=log-deletion-preview`: what a scoped deletion would remove (one read batch). */
export async function previewLogDeletion(scope: AppScope, input: DeletionInput): Promise<DeletionPreview> {
  const selection = deletionSelection(input)
  const { t, db } = scope
  const { counted, source } = await namedBatch(
    db,
    {
      counted: {
        sql: `SELECT COUNT(*) AS occurrences, COUNT(DISTINCT group_id) AS issue_groups, COUNT(DISTINCT source_file_id) AS sources FROM ${t.occurrences} WHERE ${selection.where}`,
        args: selection.args,
      },
      source: selection.sourceId === null ? null : { sql: `SELECT id, path, log_type, channel, size, imported_at FROM ${t.sourceFiles} WHERE id = ?`, args: [selection.sourceId] },
    },
    { mode: 'read' },
  )
  const counts = counted.rows[0] ?? {}
  let deletionScope: DeletionPreview['scope']
  if (selection.sourceId === null) deletionScope = { type: 'date', date: selection.date! }
  else {
    const row = source?.rows[0]
    if (!row) throw new InvalidInputError(`Source ${selection.sourceId} does not exist.`)
    const file = readRow(row, { id: 'number', path: 'string', log_type: 'string', channel: 'string?', size: 'number', imported_at: 'string?' }, 'source file')
    deletionScope = { type: 'source', source_id: selection.sourceId, source: file }
  }
  return {
    scope: deletionScope,
    occurrences: Number(counts.occurrences ?? 0),
    issue_groups: Number(counts.issue_groups ?? 0),
    sources: Number(counts.sources ?? 0),
    raw_files_preserved: true,
    checkpoints_preserved: true,
  }
}

/**
 * `POST ?api=delete-logs`: deletes the occurrences in scope, recomputes the issues they belonged to and
 * deletes ingested issues left empty; raw files and checkpoints stay (so nothing is re-imported). It takes the
 * import lock, so it never interleaves with an import's batches (a running import is the usual 400).
 */
export async function deleteLogs(scope: AppScope, body: Record<string, unknown>, now: Date) {
  if (body.confirmation !== LOG_DELETION_CONFIRMATION) throw new InvalidInputError(DELETION_MESSAGES.confirmation)
  const preview = await previewLogDeletion(scope, body)
  const selection = deletionSelection(body)
  const deleted = await withImportLock(scope, now, () => deleteOccurrences(scope, selection))
  return {
    deleted: { occurrences: deleted.occurrences, empty_issue_groups: deleted.emptyIssueGroups },
    preview,
    raw_files_preserved: true,
    checkpoints_preserved: true,
  }
}

function deletionSelection(input: DeletionInput): { where: string; args: SqlValue[]; date: string | null; sourceId: number | null } {
  const date = typeof input.date === 'string' ? input.date.trim() : input.date === undefined || input.date === null ? '' : String(input.date)
  const rawSource = input.source_id
  let sourceId: number | null = null
  if (rawSource !== undefined && rawSource !== null && rawSource !== '') {
    const number = typeof rawSource === 'number' ? rawSource : /^\s*\d+\s*$/.test(String(rawSource)) ? Number(rawSource) : NaN
    if (!Number.isSafeInteger(number) || number < 1) throw new InvalidInputError(DELETION_MESSAGES.sourceId)
    sourceId = number
  }
  if ((date !== '') === (sourceId !== null)) throw new InvalidInputError(DELETION_MESSAGES.scope)
  if (sourceId !== null) return { where: 'source_file_id = ?', args: [sourceId], date: null, sourceId }
  if (!isCalendarDate(date)) throw new InvalidInputError(DELETION_MESSAGES.date)
  // A range on occurred_at (always `YYYY-MM-DD HH:MM:SS`) rides the occurrences_time index; occurred_day has
  // none since migration 0003.
  return { where: 'occurred_at >= ? AND occurred_at <= ?', args: [`${date} 00:00:00`, `${date} 23:59:59`], date, sourceId: null }
}
