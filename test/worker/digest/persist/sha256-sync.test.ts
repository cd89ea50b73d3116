import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { sha256Hex } from '../../../../worker/digest/grouping/fingerprint.ts'
import { sha256Joined, sha256Sync } from '../../../../worker/digest/persist/sha256-sync.ts'

describe('sha256Sync', () => {
  it('matches SHA-256 of the UTF-8 bytes at every padding boundary and across buffer growth', async () => {
    for (const length of [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 70_000]) {
      const text = 'aä✓🚀'.repeat(length).slice(0, length)
      expect(sha256Sync(text), `length ${length}`).toBe(createHash('sha256').update(text, 'utf8').digest('hex'))
    }
    expect(sha256Sync('Order 123 failed|x')).toBe(await sha256Hex('Order 123 failed|x'))
  })

  it('encodes lone surrogates as U+FFFD, as TextEncoder does', () => {
    expect(sha256Sync('a\ud800b')).toBe(createHash('sha256').update(Buffer.from('a\ufffdb', 'utf8')).digest('hex'))
  })
})

describe('sha256Joined', () => {
  it('hashes the joined text without joining it', () => {
    const parts = ['2026-01-01 10:00:00', 'ERROR', '', 'laravel', 'laravel.log', 'Body ✓ 🚀\nline two']
    expect(sha256Joined(parts, '|')).toBe(createHash('sha256').update(parts.join('|'), 'utf8').digest('hex'))
    expect(sha256Joined([], '|')).toBe(createHash('sha256').update('', 'utf8').digest('hex'))
    expect(sha256Joined(['x'.repeat(100_000), 'y'], '||')).toBe(createHash('sha256').update(`${'x'.repeat(100_000)}||y`, 'utf8').digest('hex'))
  })
})
