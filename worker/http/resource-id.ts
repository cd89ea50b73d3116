import { InvalidInputError } from '../errors.ts'
import { queryString, type Query } from './query.ts'

/**
 * The id of the resource an update or delete addresses, from the JSON body or the `id` query parameter
 * (seed §4.2 rule 1). Anything but an integer ≥ 1 is a 422 with `message`.
 */
export function readResourceId(body: Record<string, unknown>, query: Query, message: string): number {
  const raw = body.id ?? queryString(query, 'id')
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : NaN
  if (!Number.isSafeInteger(id) || id < 1) throw new InvalidInputError(message)
  return id
}
