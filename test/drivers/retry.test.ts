import { describe, expect, it } from 'vitest'
import { retryOnDeadlock } from '../../drivers/retry.ts'

describe('retryOnDeadlock', () => {
  const deadlock = new Error('Deadlock found when trying to get lock (errno 1213)')
  const isDeadlock = (error: unknown) => error === deadlock

  it('runs the work again after a deadlock and returns its result', async () => {
    let calls = 0
    const result = await retryOnDeadlock(async () => {
      calls++
      if (calls < 3) throw deadlock
      return 'done'
    }, isDeadlock)
    expect(result).toBe('done')
    expect(calls).toBe(3)
  })

  it('gives up after the last attempt with the deadlock error', async () => {
    let calls = 0
    await expect(retryOnDeadlock(async () => {
      calls++
      throw deadlock
    }, isDeadlock, 3)).rejects.toBe(deadlock)
    expect(calls).toBe(3)
  })

  it('rethrows any other error at once', async () => {
    let calls = 0
    const other = new Error('syntax')
    await expect(retryOnDeadlock(async () => {
      calls++
      throw other
    }, isDeadlock)).rejects.toBe(other)
    expect(calls).toBe(1)
  })
})
