import { define, type Struct } from 'superstruct'

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
