import { describe, expect, it } from 'vitest'
import { truncateUtf8, utf8Length } from '../../../worker/digest/utf8.ts'

const encoder = new TextEncoder()

describe('utf8Length', () => {
  it.each(['', 'plain ascii', 'café', '«Zürich»', '日本語', '🚀 rocket', 'a\u{10FFFF}b', '\uD800 lone'])(
    'agrees with TextEncoder for %j',
    (text) => {
      expect(utf8Length(text)).toBe(encoder.encode(text).length)
    },
  )

  it('agrees with TextEncoder past the scratch-buffer size too, where it counts without encoding', () => {
    // Two code paths: texts up to 2^18 units are encoded into a reused buffer, longer ones are counted.
    for (const unit of ['a', 'é', '日', '🚀', '\uDC00']) {
      for (const length of [(1 << 18) - 2, (1 << 18) + 7]) {
        const text = unit.repeat(Math.ceil(length / unit.length)).slice(0, length)
        expect(utf8Length(text)).toBe(encoder.encode(text).length)
      }
    }
    // The buffer grows for a long text and still measures a short one right afterwards.
    expect(utf8Length('x'.repeat(200_000) + '日')).toBe(200_003)
    expect(utf8Length('日')).toBe(3)
  })
})

describe('truncateUtf8', () => {
  it('never splits a character and never exceeds the budget', () => {
    const text = 'aé日🚀b'
    const results = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((max) => truncateUtf8(text, max))
    expect(results).toEqual(['', 'a', 'a', 'aé', 'aé', 'aé', 'aé日', 'aé日', 'aé日', 'aé日', 'aé日🚀', 'aé日🚀b'])
    for (const [max, prefix] of results.entries()) expect(encoder.encode(prefix).length).toBeLessThanOrEqual(max)
  })
})
