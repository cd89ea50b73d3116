import type { Dialect } from '../../../drivers/index.ts'
import { Fragment, sql } from '../../../drivers/sql.ts'
import type { SqlValue, Statement } from '../../../drivers/driver.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { isAliased, resolvedFingerprint } from '../../issues/fingerprint-aliases.ts'
import { heatWeightsJson } from '../../issues/issue-heat.ts'
import { applyTagRules } from '../../tags/tag-rules.ts'
import { ISSUE_SIGNATURE_COLUMNS, signatureAssignments, signatureFieldList, signatureFieldTypes } from '../../issues/search-signature.ts'
import { EVENT_ROW_COLUMNS, type BatchPayload } from './batch-payload.ts'

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
}

/**
 * The statements persisting one batch (reference §2.6), set-based and sent as ONE atomic `db.batch`:
 * 1. insert the issues seen for the first time (rows only for fingerprints the run has not stored yet) — or,
 *    in a batch carrying the run's latest samples, 1'. upsert those samples, which inserts the new issues too;
 * 2. insert-ignore occurrences, tagged with the batch token;
 * 3. a history row for every `fixed` issue that got a new occurrence;
 * 4. count / heat / first_seen / last_seen grow by the occurrences really inserted, and `fixed` → `reoccurred`;
 * 5. `group_days` and 6. `group_sources` in step with the inserts (a trigger adds the pairs' `group_channels`
 *    rows: migration 0018);
 * 7. tag rules over the issues the batch touched or re-sampled; 8. the checkpoint and the file's count.
 * One round trip on d1/libsql/neon; on PlanetScale one per statement plus BEGIN and COMMIT: at most ten for
 * a batch with one sample parameter (a run's samples take one per 800 KB).
 */
export function persistStatements(scope: AppScope, payload: BatchPayload, target: BatchTarget): Statement[] {
  const { t, db } = scope
  const d = db.dialect
  const { sourceFileId, importBatch, now } = target
  const G = t.groups
  const statements: Statement[] = []
  const newRows = `o.source_file_id = ? AND o.byte_start >= ? AND o.byte_start <= ? AND o.import_batch = ?`
  const newArgs: SqlValue[] = [sourceFileId, payload.firstByte, payload.lastByte, importBatch]
  statements.push(...sampleStatements(scope, payload.samplesJson, target))
  if (payload.records.length > 0) {
    // Occurrence rows are arrays in EVENT_ROW_COLUMNS order (`eventRow`).
    const events = d.jsonTuples(EVENT_ROW_COLUMNS, 'j', payload.eventsJson.length)
    // 1. NOT EXISTS keeps existing issues out of the insert altogether (SQLite's conflict path builds every
    // index key first: measured 3.5× the cost of the probe); the insert-ignore still covers a concurrent
    // writer on PostgreSQL/MySQL. Count 0: step 4 adds what step 2 really inserted. A batch carrying the
    // run's samples inserts its new issues with them instead (step 1').
    if (payload.samplesJson.length === 0 && payload.groupsJson.length > 0) {
      statements.push({
        sql: d.insertIgnore(
          G,
          ISSUE_INSERT_COLUMNS,
          // A merged issue's fingerprint is no new issue: its events go to the merge target (fingerprint-aliases.ts).
          `${issueRowsSelect(d, payload.groupsJson.length)} WHERE NOT EXISTS (SELECT 1 FROM ${G} g WHERE g.fingerprint = j.fp) AND NOT ${isAliased(t, 'j.fp')}`,
          ['fingerprint'],
        ),
        args: [now, ...payload.groupsJson],
      })
    }
    statements.push({
      sql: d.insertIgnore(
        t.occurrences,
        ['group_id', 'source_file_id', 'exact_fingerprint', 'occurred_at', 'occurred_day', 'severity', 'environment', 'byte_start', 'byte_end', 'context_preview', 'event_hash', 'import_batch'],
        `SELECT g.id, s.id, j.exact, j.ts, substr(j.ts, 1, 10), g.severity, j.env, j.bstart, j.bend, j.ctx, j.hash, ${d.castText('?')}
         FROM ${events} JOIN ${G} g ON g.fingerprint = ${resolvedFingerprint(t, 'j.fp')} JOIN ${t.sourceFiles} s ON s.id = ? WHERE 1 = 1`,
        ['source_file_id', 'byte_start'],
      ),
      args: [importBatch, ...payload.eventsJson, sourceFileId],
    })
    statements.push({
      sql: `INSERT INTO ${t.history} (group_id, from_status, to_status, note, created_at, actor)
        SELECT g.id, 'fixed', 'reoccurred', ${d.castText('?')}, ${d.castText('?')}, NULL FROM ${G} g
        WHERE g.status = 'fixed' AND g.id IN (SELECT o.group_id FROM ${t.occurrences} o WHERE ${newRows})`,
      args: [REOCCURRED_NOTE, now, ...newArgs],
    })
    // 4. An UPDATE joined to the aggregate of the new rows (not an upsert: SQLite's conflict path and the
    // rewritten sample made that the most expensive statement of a batch). The engines place SET before or
    // after the row source; as fragments, each part's arguments follow it wherever it lands.
    statements.push(
      d.updateFrom(
        G,
        'G',
        {
          count: 'G.count + n.added',
          heat: 'G.heat + n.heat',
          first_seen: d.least('G.first_seen', 'n.first_ts'),
          last_seen: d.greatest('G.last_seen', 'n.last_ts'),
          // Before `status`: MySQL applies SET assignments left to right against the updated row.
          status_updated_at: sql`CASE WHEN G.status = 'fixed' THEN ${new Fragment(d.castText('?'), [now])} ELSE G.status_updated_at END`,
          status: `CASE WHEN G.status = 'fixed' THEN 'reoccurred' ELSE G.status END`,
        },
        // `heat` (migration 0013, issue-heat.ts): each new occurrence weighs its day's weight, bound as ONE JSON
        // parameter of [day, weight] pairs (a CASE with two arguments per day would pass D1's 100-parameter
        // limit on a batch of old logs spanning months). LEFT JOIN: a day missing from the list could never
        // drop an occurrence from `added`.
        new Fragment(
          `(SELECT o.group_id, COUNT(*) AS added, MIN(o.occurred_at) AS first_ts, MAX(o.occurred_at) AS last_ts, COALESCE(SUM(w.weight), 0) AS heat
            FROM ${t.occurrences} o LEFT JOIN ${d.jsonTuples({ day: 'text', weight: 'real' }, 'w')} ON w.day = o.occurred_day
            WHERE ${newRows} GROUP BY o.group_id) n`,
          [heatWeightsJson(payload.records.map((record) => record.occurredAt)), ...newArgs],
        ),
        'G.id = n.group_id',
      ),
    )
  }
  if (payload.records.length > 0) {
    statements.push({
      sql: d.upsert(
        t.groupDays,
        // The row's severity (migration 0017) is the issue's: step 2 wrote it into every new occurrence.
        ['group_id', 'day', 'severity', 'count'],
        `SELECT o.group_id, o.occurred_day, o.severity, COUNT(*) FROM ${t.occurrences} o WHERE ${newRows} GROUP BY o.group_id, o.occurred_day, o.severity`,
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
  }
  if (payload.records.length > 0 || payload.samplesJson.length > 0) statements.push(...rulePassStatements(scope, payload.fingerprintsJson, now))
  if (target.checkpoint && payload.records.length > 0) {
    statements.push({
      sql: `UPDATE ${t.fileImports} SET next_offset = ?, inside_event = ?, updated_at = ?,
        occurrence_count = occurrence_count + (SELECT COUNT(*) FROM ${t.occurrences} o WHERE ${newRows})
        WHERE source_file_id = ?`,
      args: [target.checkpoint.nextOffset, target.checkpoint.insideEvent ? 1 : 0, now, ...newArgs, sourceFileId],
    })
  } else if (target.checkpoint) {
    statements.push(checkpointStatement(scope, sourceFileId, target.checkpoint.nextOffset, target.checkpoint.insideEvent, now))
  }
  return statements
}

const ISSUE_INSERT_COLUMNS = ['fingerprint', 'severity', 'environment', 'title', 'exception_class', 'source_frame', 'count', 'first_seen', 'last_seen', 'sample_message', 'sample_stack', 'sample_context', 'created_at', 'log_type', 'channel', 'module_id', 'origin', 'kind']

/**
 * `SELECT` of `ISSUE_INSERT_COLUMNS` from issue rows (arguments: `now`, then `parameters` JSON arrays), with
 * `signatures` also of `ISSUE_SIGNATURE_COLUMNS` (sample rows carry them: batch-payload.ts).
 */
function issueRowsSelect(d: Dialect, parameters = 1, signatures = false): string {
  const rows = d.jsonRecords(
    { fp: 'text', sev: 'text', env: 'text', title: 'text', cls: 'text', frame: 'text', first_ts: 'text', last_ts: 'text', msg: 'text', stack: 'text', ctx: 'text', ltype: 'text', channel: 'text', module_id: 'integer', ...(signatures ? signatureFieldTypes : {}) },
    'j',
    parameters,
  )
  return `SELECT j.fp, j.sev, j.env, j.title, j.cls, j.frame, 0, j.first_ts, j.last_ts, j.msg, j.stack, j.ctx, ${d.castText('?')}, j.ltype, j.channel, j.module_id, 'ingested', 'error'${signatures ? `, ${signatureFieldList('j')}` : ''}
    FROM ${rows}`
}

/**
 * 1'. The run's latest samples (reference §2.6: the sample is the latest event), one upsert per JSON
 * parameter, run before the occurrences so that it also inserts the batch's new issues (its rows cover every
 * issue the batch touches). Existing issues whose sample is unchanged — created by this run with the same
 * event, or a log repeating the same text — are not rewritten; nor are merge targets by their aliases' events. Severity, exception class, log type and
 * module are inputs of the fingerprint, so equal already.
 */
function sampleStatements(scope: AppScope, chunks: readonly string[], target: BatchTarget): Statement[] {
  if (chunks.length === 0) return []
  const d = scope.db.dialect
  const G = scope.t.groups
  // Where the issue row carries the search signature (MySQL, migration 0023), the upsert writes it with the text.
  const signed = d.searchSignature === 'issue-columns'
  const overwrite = ['environment', 'title', 'source_frame', 'sample_message', 'sample_stack', 'sample_context', 'channel', ...(signed ? ISSUE_SIGNATURE_COLUMNS : [])]
  const sql = d.upsert(
    G,
    signed ? [...ISSUE_INSERT_COLUMNS, ...ISSUE_SIGNATURE_COLUMNS] : ISSUE_INSERT_COLUMNS,
    // Events of a merged issue's fingerprint never re-create it nor rewrite the merge target's sample.
    `${issueRowsSelect(d, 1, signed)} WHERE NOT ${isAliased(scope.t, 'j.fp')}`,
    ['fingerprint'],
    Object.fromEntries(overwrite.map((column) => [column, d.incoming(column)])),
    overwrite.map((column) => d.isDistinct(`${G}.${column}`, d.incoming(column))).join(' OR '),
  )
  if (d.searchSignature === 'statement') {
    // Then each issue's search signature (migration 0021), after the upsert whose text change made it unknown.
    // The row's searched text is now the sample's: written just above, or already equal; the exception class
    // is an input of the fingerprint (and is compared, should that ever change).
    const signatures = d.updateFrom(
      scope.t.searchSignatures,
      'ss',
      signatureAssignments('j'),
      `(SELECT g.id, ${signatureFieldList('r')} FROM ${d.jsonRecords({ fp: 'text', cls: 'text', ...signatureFieldTypes }, 'r')}
        JOIN ${G} g ON g.fingerprint = r.fp WHERE ${d.isSame('g.exception_class', 'r.cls')}) j`,
      'ss.id = j.id',
    )
    return chunks.flatMap((json) => [{ sql, args: [target.now, json] }, { sql: signatures.sql, args: [...signatures.args, json] }])
  }
  return chunks.map((json) => ({ sql, args: [target.now, json] }))
}

/**
 * 7. The tag rules over the issues a batch touched (`fingerprintsJson`: a JSON array of `{fp}`), atomic
 * against concurrent rule changes (tag-rules.ts).
 */
export function rulePassStatements(scope: AppScope, fingerprintsJson: string, now: string): Statement[] {
  const d = scope.db.dialect
  // The row source's one placeholder is the JSON parameter: a fragment keeps the two together.
  const touched = new Fragment(d.jsonRecords({ fp: 'text' }, 'j'), [fingerprintsJson])
  return applyTagRules(scope, sql`g.fingerprint IN (SELECT j.fp FROM ${touched})`, now)
}

/** Moves a file's checkpoint without storing events (a stretch of the file held nothing to keep). */
export function checkpointStatement(scope: AppScope, sourceFileId: number, nextOffset: number, insideEvent: boolean, now: string): Statement {
  return {
    sql: `UPDATE ${scope.t.fileImports} SET next_offset = ?, inside_event = ?, updated_at = ? WHERE source_file_id = ?`,
    args: [nextOffset, insideEvent ? 1 : 0, now, sourceFileId],
  }
}
