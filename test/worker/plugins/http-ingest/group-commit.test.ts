import { describe, expect, it } from 'vitest'
import { GroupCommit } from '../../../../worker/plugins/http-ingest/group-commit.ts'

/** A commit function whose calls wait until the test releases them. */
function gatedCommits() {
  const calls: { items: readonly string[]; release: () => void; fail: (error: Error) => void }[] = []
  const commit = (items: readonly string[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({ items, release: () => resolve(items.map((item) => `${item}:ok`)), fail: reject })
    })
  return { calls, commit }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))
const options = { maxWaitMs: 60_000, timedOut: () => new Error('timed out') }

describe('GroupCommit', () => {
  it('commits the first item alone, then everything that queued behind it in one commit', async () => {
    const { calls, commit } = gatedCommits()
    const group = new GroupCommit(commit, 100, options)
    const held: Promise<unknown>[] = []
    const waitUntil = (promise: Promise<unknown>) => void held.push(promise)
    const first = group.submit('a', 1, waitUntil)
    await tick()
    const rest = ['b', 'c', 'd'].map((item) => group.submit(item, 1, waitUntil))
    await tick()
    expect(calls.map((call) => call.items)).toEqual([['a']])
    calls[0]!.release()
    expect(await first).toBe('a:ok')
    await tick()
    expect(calls.map((call) => call.items)).toEqual([['a'], ['b', 'c', 'd']])
    calls[1]!.release()
    expect(await Promise.all(rest)).toEqual(['b:ok', 'c:ok', 'd:ok'])
    // Each commit was held by its leader's waitUntil: the first request's and then the second one's.
    expect(held).toHaveLength(2)
  })

  it('splits the queue by weight, never below one item per commit', async () => {
    const { calls, commit } = gatedCommits()
    const group = new GroupCommit(commit, 10, options)
    const none = () => {}
    const first = group.submit('a', 1, none)
    await tick()
    const queued = [group.submit('big', 25, none), group.submit('b', 6, none), group.submit('c', 4, none), group.submit('d', 1, none)]
    calls[0]!.release()
    await first
    await tick()
    expect(calls.at(-1)!.items).toEqual(['big'])
    calls.at(-1)!.release()
    await tick()
    await tick()
    expect(calls.at(-1)!.items).toEqual(['b', 'c'])
    calls.at(-1)!.release()
    await tick()
    await tick()
    expect(calls.at(-1)!.items).toEqual(['d'])
    calls.at(-1)!.release()
    expect(await Promise.all(queued)).toEqual(['big:ok', 'b:ok', 'c:ok', 'd:ok'])
  })

  it('fails every item of a failed commit with its error, and the next commit still runs', async () => {
    const { calls, commit } = gatedCommits()
    const group = new GroupCommit(commit, 100, options)
    const none = () => {}
    const first = group.submit('a', 1, none)
    await tick()
    const second = group.submit('b', 1, none)
    const third = group.submit('c', 1, none)
    calls[0]!.fail(new Error('database down'))
    await expect(first).rejects.toThrow('database down')
    await tick()
    calls[1]!.fail(new Error('still down'))
    await expect(second).rejects.toThrow('still down')
    await expect(third).rejects.toThrow('still down')
    const later = group.submit('d', 1, none)
    await tick()
    calls[2]!.release()
    expect(await later).toBe('d:ok')
  })

  it('gives up waiting after maxWaitMs, and a follower that gave up before its commit is not committed', async () => {
    const { calls, commit } = gatedCommits()
    const group = new GroupCommit(commit, 100, { maxWaitMs: 20, timedOut: () => new Error('timed out') })
    const none = () => {}
    const first = group.submit('a', 1, none)
    await tick()
    const follower = group.submit('b', 1, none)
    await expect(follower).rejects.toThrow('timed out')
    const late = group.submit('c', 1, none)
    calls[0]!.release()
    await first
    await tick()
    expect(calls.at(-1)!.items).toEqual(['c'])
    calls.at(-1)!.release()
    expect(await late).toBe('c:ok')
  })
})
