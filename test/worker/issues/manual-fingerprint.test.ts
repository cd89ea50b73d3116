import { describe, expect, it } from 'vitest'
import { manualFingerprint } from '../../../worker/issues/manual-fingerprint.ts'

describe('manualFingerprint', () => {
  it('is a fresh 64-hex-digit SHA-256 on every call', () => {
    const seen = new Set(Array.from({ length: 50 }, () => manualFingerprint()))
    expect(seen.size).toBe(50)
    for (const fingerprint of seen) expect(fingerprint).toMatch(/^[0-9a-f]{64}$/)
  })
})
