/** Rows per JSON parameter stay far below D1's 1 MB string limit (wire-protocols.md §3). */
const JSON_BYTES_PER_PARAMETER = 256 * 1024

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
