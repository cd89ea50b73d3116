import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { sha256Joined } from '../../../../worker/digest/persist/sha256-sync.ts'

const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

describe('sha256Joined', () => {
  it('matches SHA-256 of the UTF-8 bytes at every padding boundary and across buffer growth', () => {
    for (const length of [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 70_000]) {
      const text = 'aä✓🚀'.repeat(length).slice(0, length)
      expect(sha256Joined([text], ''), `length ${length}`).toBe(nodeSha256(text))
    }
    expect(sha256Joined([''], '')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(sha256Joined(['abc'], '')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })

  it('encodes lone surrogates as U+FFFD, as TextEncoder does', () => {
    expect(sha256Joined(['a\ud800b'], '')).toBe(createHash('sha256').update(Buffer.from('a\ufffdb', 'utf8')).digest('hex'))
  })

  it('hashes the joined text without joining it', () => {
    const parts = ['2026-01-01 10:00:00', 'ERROR', '', 'laravel', 'laravel.log', 'Body ✓ 🚀\nline two']
    expect(sha256Joined(parts, '|')).toBe(nodeSha256(parts.join('|')))
    expect(sha256Joined([], '|')).toBe(nodeSha256(''))
    expect(sha256Joined(['x'.repeat(100_000), 'y'], '||')).toBe(nodeSha256(`${'x'.repeat(100_000)}||y`))
  })
})
