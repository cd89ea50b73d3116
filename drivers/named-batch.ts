import type { BatchOptions, Driver, QueryResult, Statement } from './driver.ts'

type Part = Statement | readonly Statement[] | null

/** `BatchOptions`, with the read-back given by name: the parts (written last) that only read what the others wrote. */
export interface NamedBatchOptions<T> {
  readonly mode?: BatchOptions['mode']
  readonly readBack?: readonly (keyof T & string)[]
}

type ResultOf<P> = P extends readonly Statement[] ? QueryResult[] : QueryResult

/**
 * A statement's result under its name; a list of statements gives the list of their results; a name that may
 * be `null` may have no result.
 */
export type NamedResults<T extends Readonly<Record<string, Part>>> = {
  readonly [K in keyof T]: null extends T[K] ? ResultOf<Exclude<T[K], null>> | undefined : ResultOf<T[K]>
}

/**
 * Runs named statements as ONE `db.batch` (atomic, one round trip) and returns each result under its name,
 * so callers read `results.holder` instead of `results[2]!` — adding a statement cannot shift what another
 * line reads. Statements run in the order the names are written; a name may stand for a list (its results
 * come back as a list) or for `null` (a statement only some calls need: left out, no result).
 *
 * @example
 * const { holder } = await namedBatch(db, { expire: deleteExpired, take: insertIgnore, holder: selectHolder })
 */
export async function namedBatch<const T extends Readonly<Record<string, Part>>>(db: Driver, statements: T, options?: NamedBatchOptions<T>): Promise<NamedResults<T>> {
  const flat: Statement[] = []
  const spans: [string, number, number, boolean][] = []
  for (const [name, part] of Object.entries(statements) as [string, Part][]) {
    if (part === null) continue
    const list = isList(part) ? part : [part]
    spans.push([name, flat.length, list.length, isList(part)])
    flat.push(...list)
  }
  // Names left out (null) have nothing to read back; the others must be the last ones written
  // (BatchOptions.readBack counts from the end).
  const readBack = (options?.readBack ?? []).filter((name) => spans.some(([written]) => written === name))
  const tail = spans.slice(spans.length - readBack.length)
  if (readBack.length > tail.length || tail.some(([name]) => !readBack.includes(name))) throw new Error(`namedBatch: readBack ${readBack.join(', ')} must name the last parts`)
  const batchOptions: BatchOptions = { mode: options?.mode, readBack: tail.reduce((sum, [, , length]) => sum + length, 0) }
  const results = await db.batch(flat, batchOptions)
  const named: Record<string, QueryResult | QueryResult[]> = {}
  for (const [name, start, length, list] of spans) named[name] = list ? results.slice(start, start + length) : results[start]!
  return named as NamedResults<T>
}

function isList(part: Statement | readonly Statement[]): part is readonly Statement[] {
  return Array.isArray(part)
}
