import { Fragment } from '../../drivers/sql.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { SIGNATURE_COLUMNS, signatureAssignments, signatureFields, signatureFieldTypes, textSignature } from './search-signature.ts'
import { utf8Length } from '../digest/utf8.ts'

/** Issues read per round: their text comes back as one JSON parameter, so a round stays far below D1's 1 MB bound string. */
const ROWS_PER_ROUND = 200
/** UTF-8 bytes of a round's JSON parameter at most: D1 takes a bound string of up to 1 MB. */
const MAX_JSON_BYTES = 900_000
/** Issues per call: a scheduled run does a share and the next run the rest (100,000 issues: 5 runs). */
const ROWS_PER_CALL = 20_000

/**
 * Computes the search signature of issues that have none (-1: issues from before migration 0021, or whose text
 * a writer changed without one) — a share per call, from the scheduled maintenance. Unknown signatures are
 * never wrong, only slow: such an issue is tested by every `q` search. Returns how many were computed.
 *
 * Each round reads the issues' text, computes in JavaScript (the needle's mask is computed there too, so both
 * fold alike), and writes back only where the row is still unknown and its text is still the text read: a
 * writer that changed it meanwhile either stored its own signature or left the row unknown for the next round.
 */
export async function backfillSearchSignatures(scope: AppScope, limit = ROWS_PER_CALL): Promise<number> {
  const { t, db } = scope
  const d = db.dialect
  if (!d.searchSignature) return 0
  let computed = 0
  let after = 0
  while (computed < limit) {
    const { rows } = await db.execute({
      sql: `SELECT g.id, g.title, g.sample_message, g.exception_class, g.source_frame FROM ${t.searchSignatures} ss JOIN ${t.groups} g ON g.id = ss.id
        WHERE ss.${SIGNATURE_COLUMNS[0]} = -1 AND ss.id > ? ORDER BY ss.id LIMIT ${Math.min(ROWS_PER_ROUND, limit - computed)}`,
      args: [after],
    })
    if (rows.length === 0) break
    const records: string[] = []
    let bytes = 2
    for (const row of rows) {
      const text = {
        title: nullableText(row.title),
        message: nullableText(row.sample_message),
        exceptionClass: nullableText(row.exception_class),
        sourceFrame: nullableText(row.source_frame),
      }
      const record = JSON.stringify({ id: Number(row.id), ...text, ...signatureFields(textSignature(text)) })
      const size = utf8Length(record) + 1
      // The round's parameter is full: this issue starts the next round.
      if (size + 2 <= MAX_JSON_BYTES && bytes + size > MAX_JSON_BYTES) break
      after = Number(row.id)
      computed++
      // An issue whose text alone would outgrow the parameter stays unknown (tested by every search, as before).
      if (size + 2 > MAX_JSON_BYTES) continue
      records.push(record)
      bytes += size
    }
    if (records.length === 0) continue
    const source = d.jsonRecords({ id: 'integer', title: 'text', message: 'text', exceptionClass: 'text', sourceFrame: 'text', ...signatureFieldTypes }, 'j')
    await db.execute(
      d.updateFrom(
        t.searchSignatures,
        'ss',
        signatureAssignments('j'),
        new Fragment(source, [`[${records.join(',')}]`]),
        `ss.id = j.id AND ss.${SIGNATURE_COLUMNS[0]} = -1 AND EXISTS (SELECT 1 FROM ${t.groups} g WHERE g.id = j.id AND ${d.isSame('g.title', 'j.title')}
          AND ${d.isSame('g.sample_message', 'j.message')} AND ${d.isSame('g.exception_class', 'j.exceptionClass')} AND ${d.isSame('g.source_frame', 'j.sourceFrame')})`,
      ),
    )
  }
  return computed
}

function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value)
}
