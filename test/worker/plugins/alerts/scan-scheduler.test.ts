import { describe, expect, it } from 'vitest'
import { ScanScheduler } from '../../../../worker/plugins/alerts/scan-scheduler.ts'

/** A scan that waits until released, counting how often it ran. */
function gatedScan() {
  let release = () => {}
  const state = { runs: 0 }
  const scan = async () => {
    state.runs++
    await new Promise<void>((resolve) => (release = resolve))
  }
  return { state, scan, release: () => release() }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('ScanScheduler', () => {
  it('runs one scan per application at a time, and once more for everything that arrived meanwhile', async () => {
    const scheduler = new ScanScheduler()
    const background: Promise<unknown>[] = []
    const gate = gatedScan()
    for (let i = 0; i < 3; i++) scheduler.schedule('shop', gate.scan, (promise) => background.push(promise))
    expect(background).toHaveLength(1)
    // It starts a timer turn later, after the ingest's response, and covers what was asked before it looked.
    expect(gate.state.runs).toBe(0)
    await tick()
    expect(gate.state.runs).toBe(1)
    // Asked while it runs: one more scan, however many asked.
    for (let i = 0; i < 4; i++) scheduler.schedule('shop', gate.scan, (promise) => background.push(promise))
    expect(background).toHaveLength(1)
    gate.release()
    await tick()
    expect(gate.state.runs).toBe(2)
    gate.release()
    await Promise.all(background)
    expect(gate.state.runs).toBe(2)
    // Another application has its own scan; a finished one starts afresh.
    scheduler.schedule('blog', async () => {}, (promise) => background.push(promise))
    scheduler.schedule('shop', async () => {}, (promise) => background.push(promise))
    expect(background).toHaveLength(3)
    await Promise.all(background)
  })

  it('starts a new scan when the running one is older than 30 s (the runtime cancelled it), and survives a failing scan', async () => {
    let now = 0
    const scheduler = new ScanScheduler(() => now)
    const background: Promise<unknown>[] = []
    scheduler.schedule('shop', () => new Promise(() => {}), (promise) => background.push(promise))
    now = 29_999
    scheduler.schedule('shop', async () => {}, (promise) => background.push(promise))
    expect(background).toHaveLength(1)
    now = 30_000
    scheduler.schedule('shop', async () => Promise.reject(new Error('database down')), (promise) => background.push(promise))
    expect(background).toHaveLength(2)
    await background[1]
    scheduler.schedule('shop', async () => {}, (promise) => background.push(promise))
    expect(background).toHaveLength(3)
  })
})
