import type { SqlValue, Statement } from '../../../drivers/driver.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { applyTagRules } from '../../tags/tag-rules.ts'
import type { BatchPayload } from './batch-payload.ts'

/** The history note of the one automatic transition (reference §2.6 step 4). */
export const REOCCURRED_NOTE = 'A new occurrence was detected during log import.'

/** Where the events of a batch came from and where reading resumes once the batch is stored. */
export interface BatchTarget {
  readonly sourceFileId: number
  /**
   * Marks the occurrences this batch inserts. Insert-ignore skips duplicates silently, so the statements
   * after it find exactly the new rows by (source_file_id, byte_start range, import_batch) — the range
   * keeps every lookup on the unique index.
   */
  readonly importBatch: string
  readonly now: string
  /** The file checkpoint written in the same atomic batch (`file_imports`), so a resume never duplicates. */
  readonly checkpoint?: { readonly nextOffset: number; readonly insideEvent: boolean }
  /** True when fingerprints were supplied by the sender (HTTP ingest) rather than derived (§2.5). */
  readonly customFingerprints?: boolean
}

/**
 * The statements persisting one batch (reference §2.6), set-based and sent as ONE atomic `db.batch`:
 * 1. upsert issues on fingerprint (new: count 0; existing: the latest sample overwrites);
 * 2. insert-ignore occurrences, tagged with the batch token;
 * 3. a history row for every `fixed` issue that got a new occurrence;
 * 4. count / first_seen / last_seen from the new occurrences, and `fixed` → `reoccurred` — written as an
 *    upsert whose every row conflicts on `id`, the one UPDATE-from-aggregate spelling all three engines share;
 * 5. `group_days` and 6. `group_sources` in step with the inserts;
 * 7. tag rules over the issues the batch touched; 8. the checkpoint and the file's occurrence count.
 * Eight statements: one round trip on d1/libsql/neon, ten on PlanetScale (BEGIN + 8 + COMMIT).
 */
export function persistStatements(scope: AppScope, payload: BatchPayload, target: BatchTarget): Statement[] {
  const { t, db } = scope
  const d = db.dialect
  const { sourceFileId, importBatch, now } = target
  const statements: Statement[] = []
  if (payload.records.length > 0) {
    const newRows = `o.source_file_id = ? AND o.byte_start >= ? AND o.byte_start <= ? AND o.import_batch = ?`
    const newArgs: SqlValue[] = [sourceFileId, payload.firstByte, payload.lastByte, importBatch]
    const groups = d.jsonRecords(
      { fp: 'text', sev: 'text', env: 'text', title: 'text', cls: 'text', frame: 'text', first_ts: 'text', last_ts: 'text', msg: 'text', stack: 'text', ctx: 'text', ltype: 'text', channel: 'text', module_id: 'integer' },
      'j',
    )
    const events = d.jsonRecords(
      { fp: 'text', exact: 'text', hash: 'text', ts: 'text', env: 'text', bstart: 'integer', bend: 'integer', ctx: 'text' },
      'j',
    )
    // The latest sample wins (reference §2.6). Severity, exception class, log type and module are inputs of a
    // derived fingerprint, so for the same fingerprint they are equal already; leaving them out of the SET
    // spares SQLite rewriting their three indexes on every upsert. Caller-supplied fingerprints can group
    // events that differ in them, so those batches rewrite them too.
    const identity = target.customFingerprints ? ['severity', 'exception_class', 'log_type', 'module_id'] : []
    const overwrite = ['environment', 'title', 'source_frame', 'sample_message', 'sample_stack', 'sample_context', 'channel', ...identity]
    statements.push({
      sql: d.upsert(
        t.groups,
        ['fingerprint', 'severity', 'environment', 'title', 'exception_class', 'source_frame', 'count', 'first_seen', 'last_seen', 'sample_message', 'sample_stack', 'sample_context', 'created_at', 'log_type', 'channel', 'module_id', 'origin', 'kind'],
        `SELECT j.fp, j.sev, j.env, j.title, j.cls, j.frame, 0, j.first_ts, j.last_ts, j.msg, j.stack, j.ctx, ${d.castText('?')}, j.ltype, j.channel, j.module_id, 'ingested', 'error'
         FROM ${groups} WHERE 1 = 1`,
        ['fingerprint'],
        Object.fromEntries(overwrite.map((column) => [column, d.incoming(column)])),
      ),
      args: [now, payload.groupsJson],
    })
    statements.push({
      sql: d.insertIgnore(
        t.occurrences,
        ['group_id', 'source_file_id', 'exact_fingerprint', 'occurred_at', 'occurred_day', 'severity', 'environment', 'byte_start', 'byte_end', 'context_preview', 'event_hash', 'import_batch'],
        `SELECT g.id, s.id, j.exact, j.ts, substr(j.ts, 1, 10), g.severity, j.env, j.bstart, j.bend, j.ctx, j.hash, ${d.castText('?')}
         FROM ${events} JOIN ${t.groups} g ON g.fingerprint = j.fp JOIN ${t.sourceFiles} s ON s.id = ? WHERE 1 = 1`,
        ['source_file_id', 'byte_start'],
      ),
      args: [importBatch, payload.eventsJson, sourceFileId],
    })
    statements.push({
      sql: `INSERT INTO ${t.history} (group_id, from_status, to_status, note, created_at, actor)
        SELECT g.id, 'fixed', 'reoccurred', ${d.castText('?')}, ${d.castText('?')}, NULL FROM ${t.groups} g
        WHERE g.status = 'fixed' AND g.id IN (SELECT o.group_id FROM ${t.occurrences} o WHERE ${newRows})`,
      args: [REOCCURRED_NOTE, now, ...newArgs],
    })
    const G = t.groups
    statements.push({
      sql: d.upsert(
        G,
        ['id', 'fingerprint', 'severity', 'title', 'first_seen', 'last_seen', 'created_at', 'count', 'status', 'status_updated_at'],
        `SELECT g.id, g.fingerprint, g.severity, g.title, n.first_seen, n.last_seen, g.created_at, n.count, g.status, g.status_updated_at
         FROM (SELECT o.group_id, COUNT(*) AS count, MIN(o.occurred_at) AS first_seen, MAX(o.occurred_at) AS last_seen
               FROM ${t.occurrences} o WHERE ${newRows} GROUP BY o.group_id) n
         JOIN ${G} g ON g.id = n.group_id WHERE 1 = 1`,
        ['id'],
        {
          count: `${G}.count + ${d.incoming('count')}`,
          first_seen: d.least(`${G}.first_seen`, d.incoming('first_seen')),
          last_seen: d.greatest(`${G}.last_seen`, d.incoming('last_seen')),
          // Before `status`: MySQL evaluates SET assignments left to right against the updated row.
          status_updated_at: `CASE WHEN ${G}.status = 'fixed' THEN ${d.castText('?')} ELSE ${G}.status_updated_at END`,
          status: `CASE WHEN ${G}.status = 'fixed' THEN 'reoccurred' ELSE ${G}.status END`,
        },
      ),
      args: [...newArgs, now],
    })
    statements.push({
      sql: d.upsert(
        t.groupDays,
        ['group_id', 'day', 'count'],
        `SELECT o.group_id, o.occurred_day, COUNT(*) FROM ${t.occurrences} o WHERE ${newRows} GROUP BY o.group_id, o.occurred_day`,
        ['group_id', 'day'],
        { count: `${t.groupDays}.count + ${d.incoming('count')}` },
      ),
      args: newArgs,
    })
    statements.push({
      sql: d.insertIgnore(
        t.groupSources,
        ['group_id', 'source_file_id'],
        `SELECT DISTINCT o.group_id, o.source_file_id FROM ${t.occurrences} o WHERE ${newRows}`,
        ['group_id', 'source_file_id'],
      ),
      args: newArgs,
    })
    statements.push(
      applyTagRules(scope, { where: `g.fingerprint IN (SELECT j.fp FROM ${d.jsonRecords({ fp: 'text' }, 'j')})`, args: [payload.fingerprintsJson] }, now),
    )
    if (target.checkpoint) {
      statements.push({
        sql: `UPDATE ${t.fileImports} SET next_offset = ?, inside_event = ?, updated_at = ?,
          occurrence_count = occurrence_count + (SELECT COUNT(*) FROM ${t.occurrences} o WHERE ${newRows})
          WHERE source_file_id = ?`,
        args: [target.checkpoint.nextOffset, target.checkpoint.insideEvent ? 1 : 0, now, ...newArgs, sourceFileId],
      })
    }
  } else if (target.checkpoint) {
    statements.push(checkpointStatement(scope, sourceFileId, target.checkpoint.nextOffset, target.checkpoint.insideEvent, now))
  }
  return statements
}

/** Moves a file's checkpoint without storing events (a stretch of the file held nothing to keep). */
export function checkpointStatement(scope: AppScope, sourceFileId: number, nextOffset: number, insideEvent: boolean, now: string): Statement {
  return {
    sql: `UPDATE ${scope.t.fileImports} SET next_offset = ?, inside_event = ?, updated_at = ? WHERE source_file_id = ?`,
    args: [nextOffset, insideEvent ? 1 : 0, now, sourceFileId],
  }
}
