/**
 * How a column is read: engines return integers as numbers or (bigints, MySQL DECIMAL) as digit strings; a
 * list of strings is an enumeration (`['queued', 'running']`).
 */
export type ColumnType = 'string' | 'number' | 'string?' | 'number?' | 'json?' | readonly string[]

type Decoded<T extends ColumnType> =
  T extends readonly string[] ? T[number]
  : T extends 'string' ? string
  : T extends 'number' ? number
  : T extends 'string?' ? string | null
  : T extends 'number?' ? number | null
  : unknown

export type RowOf<S extends Readonly<Record<string, ColumnType>>> = { -readonly [K in keyof S]: Decoded<S[K]> }

/** A row that does not have the shape its reader expects: a bug in the query, never the user's input. */
export class RowShapeError extends Error {
  override readonly name = 'RowShapeError'
}

/**
 * Decodes one result row by a shape, so a renamed or mistyped column fails loudly where it is read (and in a
 * test) instead of flowing on as `undefined`: `number` accepts numbers and digit strings, `string` strings,
 * the `?` forms also null, `json?` a JSON text (parsed) or null.
 *
 * @example
 * const job = readRow(row, { id: 'number', status: 'string', message: 'string?' }, 'import job')
 */
export function readRow<const S extends Readonly<Record<string, ColumnType>>>(row: Readonly<Record<string, unknown>> | undefined, shape: S, what: string): RowOf<S> {
  if (row === undefined) throw new RowShapeError(`${what}: no row`)
  const out: Record<string, unknown> = {}
  for (const [column, type] of Object.entries(shape)) {
    const value = row[column]
    if (typeof type !== 'string') {
      if (typeof value !== 'string' || !type.includes(value)) throw new RowShapeError(`${what}: column ${column} is ${JSON.stringify(value)}, expected one of ${type.join(', ')}`)
      out[column] = value
      continue
    }
    const optional = type.endsWith('?')
    if (value === null || (value === undefined && optional)) {
      if (!optional) throw new RowShapeError(`${what}: column ${column} is ${String(value)}, expected ${type}`)
      out[column] = null
      continue
    }
    if (type.startsWith('number')) {
      const number = typeof value === 'number' ? value : typeof value === 'bigint' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) ? Number(value) : NaN
      if (Number.isNaN(number)) throw new RowShapeError(`${what}: column ${column} is ${JSON.stringify(value)}, expected ${type}`)
      out[column] = number
    } else if (type === 'json?') {
      try {
        out[column] = typeof value === 'string' ? JSON.parse(value) : value
      } catch {
        throw new RowShapeError(`${what}: column ${column} is not JSON`)
      }
    } else {
      if (typeof value !== 'string') throw new RowShapeError(`${what}: column ${column} is ${JSON.stringify(value)}, expected ${type}`)
      out[column] = value
    }
  }
  return out as RowOf<S>
}
