import { validate, type Struct } from 'superstruct'

export type Validation<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string }

/**
 * Validates (and coerces, applying defaults) `value` against a superstruct schema and turns the first
 * failure into one readable sentence. Refinements in the schemas return the exact user-facing message
 * (e.g. "Issue title is required."); plain type failures read "`name` must be a string.".
 *
 * @example
 * const result = check(body, TagInputSchema)
 * if (!result.ok) showError(result.message)
 */
export function check<T, S>(value: unknown, schema: Struct<T, S>): Validation<T> {
  const [error, result] = validate(value, schema, { coerce: true })
  if (!error) return { ok: true, value: result as T }
  const failure = error.failures()[0] ?? error
  // Refinements and `define`d types carry the exact user-facing message; built-in types get a generic one.
  if (failure.refinement !== undefined || !BUILT_IN_TYPES.has(failure.type)) return { ok: false, message: failure.message }
  const field = failure.path.length ? failure.path.join('.') : 'The request body'
  return { ok: false, message: `${field} must be ${describeType(failure.type, failure.value)}.` }
}

const BUILT_IN_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'type', 'enums', 'literal', 'union', 'nullable', 'optional', 'record', 'tuple', 'date', 'bigint', 'func', 'instance', 'never', 'any', 'unknown'])

function describeType(type: string, value: unknown): string {
  if (value === undefined) return 'provided'
  switch (type) {
    case 'string':
      return 'a string'
    case 'number':
      return 'a number'
    case 'integer':
      return 'an integer'
    case 'boolean':
      return 'true or false'
    case 'array':
      return 'an array'
    case 'object':
    case 'type':
      return 'an object'
    case 'enums':
      return 'one of the allowed values'
    default:
      return `a valid ${type}`
  }
}
