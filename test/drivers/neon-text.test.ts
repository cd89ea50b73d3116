import { describe, expect, it } from 'vitest'
import { decodeText, decodeValue, encodeJsonText, encodeText, jsonParameters } from '../../drivers/neon-text.ts'

const E = '\ue000'

describe('the neon driver\'s NUL escape', () => {
  it('escapes NUL as E0 and E as E1, and leaves other text untouched', () => {
    expect(encodeText('a\u0000b')).toBe(`a${E}0b`)
    expect(encodeText(`x${E}y`)).toBe(`x${E}1y`)
    expect(encodeText(`${E}0`)).toBe(`${E}10`)
    const plain = 'plain ✓ \\u0000 text'
    expect(encodeText(plain)).toBe(plain)
  })

  it('is a bijection on every string', () => {
    const samples = ['', '\u0000', E, `${E}0`, `${E}1`, `\u0000${E}\u0000`, `${E}${E}00`, 'a\u0000\u0000b', '\\u0000', `${E}x`]
    for (const text of samples) expect(decodeText(encodeText(text)), JSON.stringify(text)).toBe(text)
    const encoded = samples.map(encodeText)
    expect(new Set(encoded).size).toBe(samples.length)
    for (const text of encoded) expect(text).not.toContain('\u0000')
  })

  it('escapes inside JSON strings, keeping escaped backslashes and other escapes as they are', () => {
    const value = { a: 'x\u0000y', [`k${E}`]: [`${E}`, '\\u0000 is text', 'é\n"q"'], n: 1 }
    const json = encodeJsonText(JSON.stringify(value))
    expect(JSON.parse(json)).toEqual({ a: `x${E}0y`, [`k${E}1`]: [`${E}1`, '\\u0000 is text', 'é\n"q"'], n: 1 })
    expect(decodeValue(JSON.parse(json))).toEqual(value)
    expect(JSON.parse(encodeJsonText('["\\uE000", "\\ue000", "\\u00e9"]'))).toEqual([`${E}1`, `${E}1`, 'é'])
    const untouched = JSON.stringify([{ a: 'plain', b: null }])
    expect(encodeJsonText(untouched)).toBe(untouched)
  })

  it('decodes strings anywhere in results, leaving numbers, nulls and other objects alone', () => {
    const bytes = new Uint8Array([1])
    expect(decodeValue([{ s: `a${E}0`, n: 2, z: null }, `${E}1`])).toEqual([{ s: 'a\u0000', n: 2, z: null }, E])
    expect(decodeValue(bytes)).toBe(bytes)
    expect(decodeText(`lone ${E} stays`)).toBe(`lone ${E} stays`)
  })

  it('finds the JSON parameters of compiled SQL', () => {
    expect([...jsonParameters('SELECT * FROM jsonb_to_recordset($2::jsonb || $3::jsonb) WHERE a = $1 AND b = $10::json AND c = $4::jsonbx')]).toEqual([2, 3, 10])
  })
})
