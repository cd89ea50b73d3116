import { coerce, define, unknown, type Struct } from 'superstruct'

/**
 * Field types whose failure message is part of the API contract. `define` lets each carry its own
 * sentence (shared/validate.ts returns it as is), so the dashboard can show the same words next to a field.
 */

/** A string whose trimmed length is within [min, max]; `message` when not. Absent/undefined also fails. */
export function trimmedText(min: number, max: number, message: string): Struct<string, null> {
  return define<string>('text', (value) =>
    typeof value === 'string' && value.trim().length >= min && value.trim().length <= max ? true : message,
  )
}

/** An optional string of at most `max` characters (absent → undefined). */
export function optionalText(max: number, message: string, typeMessage: string): Struct<string | undefined, null> {
  return define<string | undefined>('text', (value) => {
    if (value === undefined || value === null) return true
    if (typeof value !== 'string') return typeMessage
    return value.length <= max ? true : message
  })
}

/** An optional string matching `pattern`. */
export function optionalPattern(pattern: RegExp, message: string): Struct<string | undefined, null> {
  return define<string | undefined>('pattern', (value) =>
    value === undefined || value === null || (typeof value === 'string' && pattern.test(value)) ? true : message,
  )
}

/** A positive integer (numeric strings such as "12" accepted, as browsers' form values are strings). */
export function toPositiveInteger(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) {
    const number = Number(value.trim())
    return Number.isSafeInteger(number) && number >= 1 ? number : null
  }
  return null
}

/**
 * A positive integer id, given as a number or a numeric string (browsers' form values are strings); the
 * validated value is the number. `message` when missing or not a positive integer.
 */
export function positiveId(message: string): Struct<number, null> {
  return coerce(
    define<number>('id', (value) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? true : message)),
    unknown(),
    (value) => toPositiveInteger(value) ?? value,
  )
}

/**
 * One of `values`, after `normalise` (e.g. trimming, upper-casing) of a string input; the validated value is
 * the normalised member. `message` otherwise.
 */
export function oneOf<T extends string>(values: readonly T[], message: string, normalise: (text: string) => string = (text) => text.trim()): Struct<T, null> {
  const members: readonly string[] = values
  return coerce(
    define<T>('member', (value) => (typeof value === 'string' && members.includes(value) ? true : message)),
    unknown(),
    (value) => (typeof value === 'string' ? normalise(value) : value),
  )
}

/** `oneOf`, where a missing or null value becomes `fallback`. */
export function oneOfOr<T extends string>(values: readonly T[], fallback: T, message: string, normalise?: (text: string) => string): Struct<T, null> {
  const member = oneOf(values, message, normalise)
  return coerce(member, unknown(), (value) => (value === undefined || value === null ? fallback : value))
}

/** `oneOf`, or absent (undefined; null counts as absent). */
export function optionalOneOf<T extends string>(values: readonly T[], message: string, normalise: (text: string) => string = (text) => text.trim()): Struct<T | undefined, null> {
  const members: readonly string[] = values
  return coerce(
    define<T | undefined>('member', (value) => (value === undefined || (typeof value === 'string' && members.includes(value)) ? true : message)),
    unknown(),
    (value) => (value === null ? undefined : typeof value === 'string' ? normalise(value) : value),
  )
}
