import type { Statement } from '../../../drivers/driver.ts'
import { Fragment } from '../../../drivers/sql.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { utf8Length } from '../../digest/utf8.ts'
import { toTimestamp } from '../../time.ts'
import type { IngestVia } from './accept-events.ts'
import type { IngestEvent } from './ingest-event.ts'

/** One accepted event waiting for the digest: its row id (its occurrence's `byte_start`) and what it carried. */
export interface StagedEvent {
  readonly id: number
  readonly via: IngestVia
  readonly event: IngestEvent
}

/**
 * D1 refuses strings over 1 MB (wire-protocols.md §3): staged rows travel in JSON parameters of at most this
 * many UTF-8 bytes, one insert each, all in the caller's atomic batch.
 */
const MAX_PARAMETER_BYTES = 700_000

/** One event as `stageStatements` inserts it: a JSON record, serialised by the request that accepted it. */
export function stagedRow(event: IngestEvent, via: IngestVia): string {
  return JSON.stringify({ eid: event.eventId, payload: JSON.stringify({ via, event }) })
}

/**
 * Inserts accepted events (`stagedRow`s) as pending rows, only while `guard` holds (ingest-gate.ts
 * `stillOpen`). The same Sentry `event_id` is inserted once (insert-ignore on its unique index; digested
 * rows keep theirs for `DIGESTED_RETENTION_MS`), so a resent event is stored once.
 */
export function stageStatements(scope: AppScope, rows: readonly string[], now: string, guard: Fragment): Statement[] {
  const d = scope.db.dialect
  const insert = (json: string) =>
    new Fragment(
      d.insertIgnore(scope.t.ingestEvents, ['event_id', 'payload', 'received_at'], `SELECT j.eid, j.payload, ${d.castText('?')} FROM ${d.jsonRecords({ eid: 'text', payload: 'text' }, 'j')} WHERE ${guard.sql}`, ['event_id']),
      [now, json, ...guard.args],
    )
  const statements: Statement[] = []
  let chunk: string[] = []
  let bytes = 0
  const flush = () => {
    if (chunk.length > 0) statements.push(insert(`[${chunk.join(',')}]`))
    chunk = []
    bytes = 0
  }
  for (const row of rows) {
    const size = utf8Length(row) + 1
    if (bytes + size > MAX_PARAMETER_BYTES) flush()
    chunk.push(row)
    bytes += size
  }
  flush()
  return statements
}

/** Digested rows are kept this long, so the same Sentry event sent again within it is not stored twice. */
export const DIGESTED_RETENTION_MS = 24 * 60 * 60 * 1000

/** The oldest pending rows, at most `limit` of them. */
export function readPendingStatement(scope: AppScope, limit: number): Statement {
  return { sql: `SELECT id, payload FROM ${scope.t.ingestEvents} WHERE digested_at IS NULL ORDER BY id LIMIT ?`, args: [limit] }
}

/** Parses pending rows; a row that is not what `stageStatements` wrote (it cannot be) is skipped. */
export function toStagedEvents(rows: readonly Record<string, unknown>[]): StagedEvent[] {
  const staged: StagedEvent[] = []
  for (const row of rows) {
    try {
      const parsed = JSON.parse(String(row.payload)) as { via: IngestVia; event: IngestEvent }
      staged.push({ id: Number(row.id), via: parsed.via, event: parsed.event })
    } catch {
      // Unreadable payloads are marked digested with the rest and dropped by the retention sweep.
    }
  }
  return staged
}

/** Marks rows digested (in the batch that stores them) and forgets those digested before the retention. */
export function finishStatements(scope: AppScope, ids: readonly number[], now: Date): Statement[] {
  const T = scope.t.ingestEvents
  const d = scope.db.dialect
  const at = toTimestamp(now)
  const before = toTimestamp(new Date(now.getTime() - DIGESTED_RETENTION_MS))
  return [
    { sql: `UPDATE ${T} SET digested_at = ? WHERE id IN (SELECT j.id FROM ${d.jsonRecords({ id: 'integer' }, 'j')})`, args: [at, JSON.stringify(ids.map((id) => ({ id })))] },
    { sql: `DELETE FROM ${T} WHERE digested_at IS NOT NULL AND digested_at < ?`, args: [before] },
  ]
}

/** How many events wait for the digest. */
export function countPendingStatement(scope: AppScope): Statement {
  return { sql: `SELECT COUNT(*) AS pending FROM ${scope.t.ingestEvents} WHERE digested_at IS NULL` }
}
