import { createServer, type Server } from 'node:http'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startLocalCron } from '../../tools/local-cron.ts'

let server: Server | undefined

afterEach(() => {
  vi.useRealTimers()
  server?.close()
})

/** A stand-in for wrangler dev's manual-trigger route that records what it was asked. */
async function recorder(): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = []
  server = createServer((request, response) => {
    paths.push(request.url ?? '')
    response.end('ok')
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const address = server.address() as { port: number }
  return { url: `http://127.0.0.1:${address.port}`, paths }
}

describe('startLocalCron', () => {
  it('fires the scheduled handler at the minutes the cron names, and not in between', async () => {
    const { url, paths } = await recorder()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    vi.setSystemTime(new Date('2026-11-24T10:13:30Z'))
    const lines: string[] = []
    const stop = startLocalCron({ url, crons: ['*/15 * * * *', '0 3 * * *'], log: (line) => lines.push(line) })
    await vi.advanceTimersByTimeAsync(31_000) // 10:14:01 — nothing due
    expect(paths).toEqual([])
    await vi.advanceTimersByTimeAsync(60_000) // 10:15:00.05 — */15 is due
    await vi.waitFor(() => expect(paths).toEqual(['/cdn-cgi/handler/scheduled?cron=*%2F15%20*%20*%20*%20*']))
    await vi.advanceTimersByTimeAsync(60_000) // 10:16 — nothing
    expect(paths).toHaveLength(1)
    stop()
    await vi.advanceTimersByTimeAsync(15 * 60_000)
    expect(paths).toHaveLength(1)
    expect(lines).toEqual(['cron */15 * * * *: scheduled handler ran'])
  })
})
