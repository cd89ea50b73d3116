import { OperationalError } from '../errors.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { parseLog } from './parse-log.ts'
import { SAMPLE_BYTES, parserById, selectParser } from './select-parser.ts'
import type { LogParser } from './parsers/parser.ts'
import { foldDailyCountsStatements } from './persist/daily-counts.ts'
import { IssueValueRollup } from './issue-value-rollup.ts'
import { deleteOccurrences } from './persist/delete-occurrences.ts'
import { toEventRecords } from './persist/event-record.ts'
import { randomToken } from './persist/random-token.ts'
import { toTimestamp } from '../time.ts'
import { addByType, addFileResult, emptyFileResult } from '../jobs/import-result.ts'
import { BatchWriter } from './batch-writer.ts'
import { AccessRollup, clearAccessRollupStatement } from './access-rollup.ts'
import { budgetExhausted, type Budget, type ImportContext } from '../jobs/import-context.ts'
import type { FileState } from '../jobs/file-state.ts'
import { yieldToEventLoop } from '../jobs/yield-to-event-loop.ts'

/** Read size per R2 range request; doubled (up to MAX_CHUNK) while a single event does not fit. */
export const CHUNK_BYTES = 1024 * 1024
const MAX_CHUNK_BYTES = 8 * 1024 * 1024

export const ARCHIVE_MISSING_MESSAGE = 'The archived copy of this file is gone; it was not (fully) imported.'

/**
 * Imports one archived file from its checkpoint until it ends or the budget runs out (reference §2.9, on R2):
 * the file is read in range requests, parsed chunk by chunk with the parser chosen at offset 0, filtered by the
 * allow-list, and persisted batch by batch, each batch moving the checkpoint atomically with its events. A file
 * last read under another import version is first cleared and read again from byte 0.
 */
export async function importFile(ctx: ImportContext, file: FileState, budget: Budget): Promise<{ done: boolean }> {
  const { scope, logs, limits } = ctx
  const { t } = scope
  let state = file
  const channel = state.channel ?? state.path.slice(state.path.lastIndexOf('/') + 1)
  if (state.parser_version !== ctx.version) {
    const now = toTimestamp(ctx.now())
    // Read again from byte 0 with the parser today's detection picks: after a parser change (a reindex, a new
    // parser version) the format chosen when the file arrived may no longer be the right one.
    const parser = await detectParser(ctx, state, channel)
    await deleteOccurrences(scope, { where: 'source_file_id = ?', args: [state.id] }, [
      { sql: `UPDATE ${t.sourceFiles} SET parser_version = ?, last_offset = 0, log_type = ? WHERE id = ?`, args: [ctx.version, parser.logType, state.id] },
      { sql: `UPDATE ${t.fileImports} SET next_offset = 0, inside_event = 0, parser_id = ?, updated_at = ? WHERE source_file_id = ?`, args: [parser.id, now, state.id] },
      clearAccessRollupStatement(scope, state.id),
    ])
    state = { ...state, parser_version: ctx.version, next_offset: 0, inside_event: 0, parser_id: parser.id, log_type: parser.logType }
  }
  const token = randomToken()
  const runStart = state.next_offset
  let offset = state.next_offset
  let insideEvent = state.inside_event === 1
  let parser: LogParser | undefined = state.parser_id ? parserById(state.parser_id) : undefined
  let chunk = CHUNK_BYTES
  // Every entry read is accounted for: stored, skipped by severity, already stored, or (lines) unparseable.
  const stats = emptyFileResult(state.origin_path ?? state.path, parser?.logType ?? state.log_type)
  ctx.touched.add(state.id)
  const access = new AccessRollup(scope, state.id)
  const values = new IssueValueRollup()
  const writer = new BatchWriter(scope, {
    sourceFileId: state.id,
    importBatch: token,
    limits: limits.batch,
    onBatch: (coveredTo) => ctx.progress({ bytes: budget.initial - budget.bytes - (offset - coveredTo), file: state.path, boundary: false }),
    extra: (upTo) => access.take(upTo),
  })
  try {
    while (offset < state.size && !budgetExhausted(budget)) {
      await yieldToEventLoop()
      const length = Math.min(chunk, state.size - offset)
      const bytes = await logs.read(state.path, offset, length)
      if (bytes === null) throw new OperationalError(ARCHIVE_MISSING_MESSAGE)
      const isEndOfFile = offset + bytes.length >= state.size || bytes.length < length
      const now = toTimestamp(ctx.now())
      const parsed = parseLog(bytes, {
        fileName: channel,
        parser,
        baseOffset: offset,
        isEndOfFile,
        fileModifiedAt: state.modified_at ?? now,
        now,
        captureLimit: limits.captureLimit,
        forceProgress: !isEndOfFile && chunk >= MAX_CHUNK_BYTES,
        insideEvent,
      })
      if (parsed.consumedTo <= offset && !isEndOfFile) {
        chunk = Math.min(chunk * 2, MAX_CHUNK_BYTES)
        continue
      }
      parser = parsed.parser
      access.add(parsed.events)
      const kept = parsed.events.filter((event) => ctx.allowed.has(event.severity))
      stats.read += parsed.events.length
      stats.unparseable += parsed.unparseable
      if (kept.length < parsed.events.length) {
        for (const event of parsed.events) if (!ctx.allowed.has(event.severity)) stats.skipped[event.severity] = (stats.skipped[event.severity] ?? 0) + 1
      }
      const records = toEventRecords(kept, { moduleId: state.module_id, channel }, limits.messageLimit)
      budget.bytes -= parsed.consumedTo - offset
      offset = parsed.consumedTo
      insideEvent = parsed.insideEvent
      chunk = CHUNK_BYTES
      values.add(records)
      await writer.add(records, { nextOffset: offset, insideEvent }, now)
    }
    await writer.flush(toTimestamp(ctx.now()))
  } finally {
    await writer.settle()
  }
  const done = offset >= state.size
  // What this run stored in this file: the reference's per-file events (new occurrences) and groups. The
  // summary's day rollup catches up in the same batch.
  const { stored } = await namedBatch(scope.db, {
    finished: done ? { sql: `UPDATE ${t.sourceFiles} SET last_offset = ?, imported_at = ? WHERE id = ?`, args: [state.size, toTimestamp(ctx.now()), state.id] } : null,
    // The run's value breakdown rides in this closing batch (issue-value-rollup.ts): no round trip of its own.
    values: values.take(scope),
    fold: foldDailyCountsStatements(scope),
    stored: {
      sql: `SELECT COUNT(*) AS events, COUNT(DISTINCT group_id) AS grps FROM ${t.occurrences} WHERE source_file_id = ? AND byte_start >= ? AND import_batch = ?`,
      args: [state.id, runStart, token],
    },
  })
  const counts = stored.rows[0] ?? {}
  const events = Number(counts.events ?? 0)
  ctx.result.events += events
  ctx.result.groups += Number(counts.grps ?? 0)
  addByType(ctx.result, state.log_type, events)
  const skipped = Object.values(stats.skipped).reduce((sum, n) => sum + n, 0)
  addFileResult(ctx.result, { ...stats, format: parser?.logType ?? stats.format, stored: events, already_stored: Math.max(0, stats.read - skipped - events) })
  await ctx.progress({ bytes: budget.initial - budget.bytes, file: state.path, boundary: true })
  return { done }
}

const headDecoder = new TextDecoder()

/** The parser for an archived file, chosen from its first 64 KiB as at registration (its recorded one if empty). */
async function detectParser(ctx: ImportContext, state: FileState, channel: string): Promise<LogParser> {
  const recorded = state.parser_id ? parserById(state.parser_id) : undefined
  if (state.size === 0 && recorded) return recorded
  const head = await ctx.logs.read(state.path, 0, Math.min(state.size, SAMPLE_BYTES))
  if (head === null) throw new OperationalError(ARCHIVE_MISSING_MESSAGE)
  return selectParser(channel, headDecoder.decode(head))
}
