import { Fragment } from '../../drivers/sql.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { SIGNATURE_COLUMNS, textSignature } from './search-signature.ts'

/** Issues read per round: their text comes back as one JSON parameter, so a round stays far below D1's 1 MB bound string. */
const ROWS_PER_ROUND = 200
/** Bytes of text per round's JSON parameter, whatever the row count (samples can be long). */
const BYTES_PER_ROUND = 400_000
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
  let written = 0
  let after = 0
  while (written < limit) {
    const { rows } = await db.execute({
      sql: `SELECT id, title, sample_message, exception_class, source_frame FROM ${t.groups}
        WHERE ${SIGNATURE_COLUMNS[0]} = -1 AND id > ? ORDER BY id LIMIT ${Math.min(ROWS_PER_ROUND, limit - written)}`,
      args: [after],
    })
    if (rows.length === 0) break
    const records: Record<string, unknown>[] = []
    let bytes = 0
    for (const row of rows) {
      const text = {
        title: nullableText(row.title),
        message: nullableText(row.sample_message),
        exceptionClass: nullableText(row.exception_class),
        sourceFrame: nullableText(row.source_frame),
      }
      const words = textSignature(text)
      records.push({ id: Number(row.id), ...text, ...Object.fromEntries(words.map((word, index) => [`s${index}`, word])) })
      after = Number(row.id)
      bytes += (text.title?.length ?? 0) + (text.message?.length ?? 0) + (text.exceptionClass?.length ?? 0) + (text.sourceFrame?.length ?? 0)
      if (bytes >= BYTES_PER_ROUND) break
    }
    const source = d.jsonRecords(
      {
        id: 'integer', title: 'text', message: 'text', exceptionClass: 'text', sourceFrame: 'text',
        ...Object.fromEntries(SIGNATURE_COLUMNS.map((_, word) => [`s${word}`, 'integer' as const])),
      },
      'j',
    )
    await db.execute(
      d.updateFrom(
        t.groups,
        'g',
        Object.fromEntries(SIGNATURE_COLUMNS.map((column, word) => [column, `j.s${word}`])),
        new Fragment(source, [JSON.stringify(records)]),
        `g.id = j.id AND g.${SIGNATURE_COLUMNS[0]} = -1 AND g.title IS j.title AND g.sample_message IS j.message
          AND g.exception_class IS j.exceptionClass AND g.source_frame IS j.sourceFrame`,
      ),
    )
    written += records.length
  }
  return written
}

function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value)
}
