import { describe, expect, it } from 'vitest'
import { number, string, type } from 'superstruct'
import { check } from '../../shared/validate.ts'
import { slugify } from '../../shared/schemas/application.ts'
import { TagInputSchema } from '../../shared/schemas/tag.ts'

describe('check', () => {
  it('returns the value when valid', () => {
    expect(check({ name: 'a', extra: 1 }, TagInputSchema)).toEqual({ ok: true, value: { name: 'a', extra: 1 } })
  })

  it('returns the refinement message of the first failing field', () => {
    expect(check({ name: '', color: 'x' }, TagInputSchema)).toEqual({ ok: false, message: 'Tag name must contain 1–80 characters.' })
  })

  it('describes plain type failures by field', () => {
    const schema = type({ a: string(), b: number() })
    expect(check({ a: 1, b: 2 }, schema)).toEqual({ ok: false, message: 'a must be a string.' })
    expect(check({ a: 'x' }, schema)).toEqual({ ok: false, message: 'b must be provided.' })
  })
})

describe('slugify', () => {
  it.each([
    ['Billing Service', 'billing-service'],
    ['  --Ünïcode & Co--  ', 'n-code-co'],
    ['a'.repeat(70), 'a'.repeat(64)],
    [`${'a'.repeat(63)}-b`, 'a'.repeat(63)],
    ['!!!', ''],
  ])('%s → %s', (input, output) => {
    expect(slugify(input)).toBe(output)
  })
})
