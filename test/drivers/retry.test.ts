import { describe, expect, it } from 'vitest'
import { retryOnDeadlock } from '../../drivers/retry.ts'
import { isDeadlock as isMysqlRetryable } from '../../drivers/planetscale.ts'

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

describe('PlanetScale: which MySQL failures run the transaction again', () => {
  it('retries a deadlock victim (1213) and a failed auto-increment read (1467), as Vitess words them', () => {
    expect(isMysqlRetryable(new Error('target: loupe.-.primary: vttablet: rpc error: code = Aborted desc = Deadlock found when trying to get lock; try restarting transaction (errno 1213) (sqlstate 40001)'))).toBe(true)
    expect(isMysqlRetryable(new Error('Failed to read auto-increment value from storage engine (errno 1467) (sqlstate HY000)'))).toBe(true)
  })

  it('does not retry constraint, syntax or unrelated failures', () => {
    expect(isMysqlRetryable(new Error("Duplicate entry 'a' for key 'name' (errno 1062) (sqlstate 23000)"))).toBe(false)
    expect(isMysqlRetryable(new Error('Table doesn\'t exist (errno 1146) (sqlstate 42S02)'))).toBe(false)
    expect(isMysqlRetryable(new Error('errno 14670'))).toBe(false)
    expect(isMysqlRetryable(undefined)).toBe(false)
  })
})
