import { describe, expect, it } from 'vitest'
import { postgresDialect } from '../../../drivers/dialect/postgres.ts'
import { parseJson } from '../../../drivers/dialect/dialect.ts'

describe('postgresDialect.compile', () => {
  it.each([
    ['SELECT ? AS a, ? AS b', 'SELECT $1 AS a, $2 AS b'],
    ["SELECT '?' AS literal, ?", "SELECT '?' AS literal, $1"],
    ["SELECT 'it''s ?' , ?", "SELECT 'it''s ?' , $1"],
    ['SELECT "col?" FROM t WHERE x = ?', 'SELECT "col?" FROM t WHERE x = $1'],
    ['SELECT 1 -- what?\n, ?', 'SELECT 1 -- what?\n, $1'],
    ['SELECT 1', 'SELECT 1'],
  ])('%s', (input, output) => {
    expect(postgresDialect.compile(input)).toBe(output)
  })
})

describe('parseJson', () => {
  it('parses text, passes parsed values through and falls back on null or empty', () => {
    expect(parseJson('[1]', [])).toEqual([1])
    expect(parseJson([2], [])).toEqual([2])
    expect(parseJson(null, ['x'])).toEqual(['x'])
    expect(parseJson('', 0)).toBe(0)
  })
})
