import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { Sha256Stream } from '../../../worker/connectors/sha256-stream.ts'

describe('Sha256Stream', () => {
  it('equals node SHA-256 for any split of the input, at every padding boundary', () => {
    const data = new Uint8Array(300).map((_, i) => (i * 31 + 7) & 0xff)
    for (const size of [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 300]) {
      const bytes = data.subarray(0, size)
      const expected = createHash('sha256').update(bytes).digest('hex')
      for (const cut of [0, 1, 30, 64, size]) {
        const hash = new Sha256Stream()
        hash.update(bytes.subarray(0, Math.min(cut, size))).update(bytes.subarray(Math.min(cut, size)))
        expect(hash.hex(), `size ${size} cut ${cut}`).toBe(expected)
      }
    }
  })
})
