import { afterEach, describe, expect, it, vi } from 'vitest'
import { DriverError } from '../../drivers/driver-error.ts'
import { describeFailure, logFailure } from '../../worker/log-failure.ts'

describe('logFailure', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('writes one line with what failed and the whole cause chain, codes included', () => {
    const lines: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line))
    const root = Object.assign(new Error('connect ECONNRESET 127.0.0.1:5432'), { code: 'ECONNRESET' })
    logFailure('import job app#3 failed', new Error('step failed', { cause: new TypeError('fetch failed', { cause: root }) }))
    expect(lines).toEqual(['loupe: import job app#3 failed: Error: step failed <- TypeError: fetch failed <- Error[ECONNRESET]: connect ECONNRESET 127.0.0.1:5432'])
  })

  it('stops four causes deep and describes non-errors as text', () => {
    let error: Error = new Error('e0')
    for (let i = 1; i < 7; i++) error = new Error(`e${i}`, { cause: error })
    expect(describeFailure(error)).toBe('Error: e6 <- Error: e5 <- Error: e4 <- Error: e3')
    expect(describeFailure('a string')).toBe('a string')
    expect(describeFailure(new Error('outer', { cause: 42 }))).toBe('Error: outer <- 42')
  })

  it('names driver errors with their code', () => {
    expect(describeFailure(new DriverError('timeout', 'neon', 'The database did not answer within 1500 ms.'))).toBe('DriverError[timeout]: The database did not answer within 1500 ms.')
  })
})
