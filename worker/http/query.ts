import { InvalidInputError } from '../errors.ts'

/** itty-router's parsed query: repeated parameters become arrays. */
export type Query = Readonly<Record<string, string | string[] | undefined>>

/** The parameter's value (the first, when repeated), trimmed; undefined when absent or empty. */
export function queryString(query: Query, name: string): string | undefined {
  const raw = query[name]
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim()
  return value === '' ? undefined : value
}

const TRUE_VALUES = new Set(['true', '1'])
const FALSE_VALUES = new Set(['false', '0'])

/** Seed §1: query booleans are `true`, `false`, `1` or `0`; anything else is a 422. */
export function queryBoolean(query: Query, name: string, fallback: boolean): boolean
export function queryBoolean(query: Query, name: string, fallback: undefined): boolean | undefined
export function queryBoolean(query: Query, name: string, fallback: boolean | undefined): boolean | undefined {
  const value = queryString(query, name)?.toLowerCase()
  if (value === undefined) return fallback
  if (TRUE_VALUES.has(value)) return true
  if (FALSE_VALUES.has(value)) return false
  throw new InvalidInputError(`${name} must be true, false, 1 or 0.`)
}

/**
 * An integer parameter within [min, max]. Out-of-range values are a 422 rather than silently clamped
 * (design.md §4 "out-of-range numbers get a clear 4xx").
 */
export function queryInteger(query: Query, name: string, options: { min: number; max: number; fallback: number }): number
export function queryInteger(query: Query, name: string, options: { min: number; max: number; fallback?: undefined }): number | undefined
export function queryInteger(
  query: Query,
  name: string,
  options: { min: number; max: number; fallback?: number },
): number | undefined {
  const value = queryString(query, name)
  if (value === undefined) return options.fallback
  const number = /^-?\d+$/.test(value) ? Number(value) : NaN
  if (!Number.isSafeInteger(number) || number < options.min || number > options.max) {
    throw new InvalidInputError(`${name} must be an integer from ${options.min} to ${options.max}.`)
  }
  return number
}
