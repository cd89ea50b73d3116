/** Rows per JSON parameter stay far below D1's 1 MB string limit (wire-protocols.md §3). */
const JSON_BYTES_PER_PARAMETER = 256 * 1024

/**
 * JSON parameters one statement reads: each is a term of a compound SELECT (`… FROM json_each(?) UNION ALL
 * …`), and D1 refuses more than five ("too many terms in compound SELECT") — the digest's own batches stop at
 * five for the same reason (batch-payload.ts `maxJsonParameters`).
 */
export const JSON_PARAMETERS_PER_STATEMENT = 5

/**
 * Rollup rows (the access rollup, the issue value rollup) as JSON arrays of arrays, split so that no parameter
 * passes `JSON_BYTES_PER_PARAMETER` — sized at 3 bytes per UTF-16 unit, the UTF-8 worst case, so no row is
 * measured twice. Always at least one parameter (`[]` for no rows).
 */
export function jsonParameters(rows: readonly unknown[][]): string[] {
  const parameters: string[] = []
  let part: string[] = []
  let bytes = 2
  for (const row of rows) {
    const text = JSON.stringify(row)
    if (part.length > 0 && bytes + text.length * 3 > JSON_BYTES_PER_PARAMETER) {
      parameters.push(`[${part.join(',')}]`)
      part = []
      bytes = 2
    }
    part.push(text)
    bytes += text.length * 3 + 1
  }
  parameters.push(`[${part.join(',')}]`)
  return parameters
}

/**
 * `jsonParameters(rows)` in groups of at most JSON_PARAMETERS_PER_STATEMENT, one statement's worth each: a
 * rollup of more than ~1.2 MB of rows (an import batch of access lines with distinct paths, a file's value
 * breakdown over thousands of issues) is several statements in the same batch, not one D1 refuses.
 */
export function jsonParameterGroups(rows: readonly unknown[][]): string[][] {
  const parameters = jsonParameters(rows)
  const groups: string[][] = []
  for (let i = 0; i < parameters.length; i += JSON_PARAMETERS_PER_STATEMENT) groups.push(parameters.slice(i, i + JSON_PARAMETERS_PER_STATEMENT))
  return groups
}
