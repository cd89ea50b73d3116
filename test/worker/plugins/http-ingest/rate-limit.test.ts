import { describe, expect, it } from 'vitest'
import { rateAllowance, rateWindow } from '../../../../worker/plugins/http-ingest/rate-limit.ts'

describe('ingest rate limit: sliding window over fixed buckets (reference §4.3)', () => {
  const at = (seconds: number) => new Date(seconds * 1000)

  it('places now in its bucket, with the fraction gone by and the seconds to the roll-over', () => {
    expect(rateWindow(at(6015), 60)).toEqual({ bucket: 100, elapsed: 0.25, retryAfter: 45 })
    expect(rateWindow(at(6000), 60)).toEqual({ bucket: 100, elapsed: 0, retryAfter: 60 })
  })

  it('weighs the previous bucket by the part of the window still ahead, and the tightest cap wins', () => {
    const window = rateWindow(at(6015), 60) // a quarter into bucket 100
    const rows = [
      { scope: 'app', bucket: 100, count: 10 },
      { scope: 'app', bucket: 99, count: 40 }, // 40 × 0.75 = 30 still counts
      { scope: 'ip:1.2.3.4', bucket: 100, count: 3 },
    ]
    expect(rateAllowance(rows, [{ scope: 'app', max: 100 }], window)).toBe(60)
    expect(rateAllowance(rows, [{ scope: 'app', max: 100 }, { scope: 'ip:1.2.3.4', max: 5 }], window)).toBe(2)
    expect(rateAllowance(rows, [{ scope: 'app', max: 30 }], window)).toBe(0)
    expect(rateAllowance([], [{ scope: 'app', max: 7 }], window)).toBe(7)
  })
})
