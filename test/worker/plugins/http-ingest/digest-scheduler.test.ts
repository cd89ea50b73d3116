import { describe, expect, it } from 'vitest'
import { DigestScheduler } from '../../../../worker/plugins/http-ingest/digest-scheduler.ts'

describe('DigestScheduler: one digest loop per application', () => {
  it('lets requests that arrive during a run ask it to go round again instead of starting their own', async () => {
    const scheduler = new DigestScheduler()
    const started: Promise<unknown>[] = []
    let calls = 0
    let release: () => void = () => {}
    const digest = async () => {
      calls++
      if (calls === 1) await new Promise<void>((resolve) => (release = resolve))
      return { events: 1, batches: 1, more: false }
    }
    scheduler.schedule('a', digest, (promise) => started.push(promise))
    await new Promise((resolve) => setTimeout(resolve, 5))
    scheduler.schedule('a', digest, (promise) => started.push(promise))
    scheduler.schedule('a', digest, (promise) => started.push(promise))
    expect(started).toHaveLength(1)
    release()
    await Promise.all(started)
    expect(calls).toBe(2) // the first pass, then one more for the two requests that came meanwhile
    scheduler.schedule('a', digest, (promise) => started.push(promise))
    expect(started).toHaveLength(2) // the run ended: the next request starts a new one
    await Promise.all(started)
  })

  it('keeps going while a pass reports more, and survives a failing pass', async () => {
    const scheduler = new DigestScheduler()
    const started: Promise<unknown>[] = []
    const outcomes = [true, true, false]
    let calls = 0
    scheduler.schedule('b', async () => ({ events: 1, batches: 1, more: outcomes[calls++]! }), (promise) => started.push(promise))
    await Promise.all(started)
    expect(calls).toBe(3)
    scheduler.schedule('c', async () => { throw new Error('database down') }, (promise) => started.push(promise))
    await Promise.all(started)
    scheduler.schedule('c', async () => ({ events: 0, batches: 0, more: false }), (promise) => started.push(promise))
    expect(started).toHaveLength(3)
  })
})
