/**
 * Issue 10 defect 10, under `wrangler dev` (what `npm start` runs): a request refused early must not leave its
 * body half read. workerd then logs `Can't read from request stream after response has been sent` and, under
 * wrangler's proxy, sometimes answers "Your worker restarted mid-request" instead of the JSON error. The
 * worker drains the rest of a refused body (worker/http/read-body.ts); these requests stream chunked bodies,
 * which have no length up front, so the limit is only found while reading.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWorker, type RunningWorker } from '../../tools/worker-process.ts'

const MiB = 1024 * 1024
const BAD_LINE = /Can't read from request stream/

let worker: RunningWorker
let app: string

beforeAll(async () => {
  worker = await startWorker({}, 'local-body', { logLevel: 'debug' })
  app = `body-${Date.now().toString(36)}`
  const created = await fetch(`${worker.url}/?api=applications`, { method: 'POST', body: JSON.stringify({ name: 'Body', id: app }) })
  expect(created.status).toBe(201)
}, 120_000)

afterAll(async () => {
  await worker?.stop()
})

/** A chunked body of `bytes` bytes (no Content-Length), sent in 256 KiB chunks. */
function chunked(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0
  return new ReadableStream({
    pull(controller) {
      const size = Math.min(256 * 1024, bytes - sent)
      if (size <= 0) return controller.close()
      controller.enqueue(new Uint8Array(size).fill(0x61))
      sent += size
    },
  })
}

async function send(api: string, query: Record<string, string>, body: ReadableStream<Uint8Array> | string): Promise<{ status: number; text: string }> {
  const url = new URL(worker.url)
  url.searchParams.set('api', api)
  url.searchParams.set('app', app)
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value)
  const response = await fetch(url, { method: 'POST', body, duplex: 'half' } as RequestInit)
  return { status: response.status, text: await response.text() }
}

/**
 * What the worker logged while `work` ran and shortly after (workerd reports the failure asynchronously, after
 * the response). The line only appears at wrangler's `debug` level, where workerd's own messages are shown.
 */
async function logDuring(work: () => Promise<void>): Promise<string> {
  const from = worker.output().length
  await work()
  await new Promise((resolve) => setTimeout(resolve, 1500))
  return worker.output().slice(from)
}

describe('request bodies refused early under wrangler dev', { timeout: 120_000 }, () => {
  it('answers an oversized chunked JSON body with 413 and leaves no unread body behind', async () => {
    const log = await logDuring(async () => {
      const response = await send('tags', {}, chunked(3 * MiB))
      expect(response).toEqual({ status: 413, text: JSON.stringify({ error: 'Request body is too large (limit 1 MiB).' }) })
    })
    expect(log).not.toMatch(BAD_LINE)
  })

  it('answers an oversized chunked upload with 413 and leaves no unread body behind', async () => {
    const log = await logDuring(async () => {
      const response = await send('import-incoming', { file: 'big.log' }, chunked(40 * MiB))
      expect(response).toEqual({ status: 413, text: JSON.stringify({ error: 'Request body is too large (limit 32 MiB).' }) })
    })
    expect(log).not.toMatch(BAD_LINE)
  })

  it('answers an early 422 without reading the body, and logs nothing either', async () => {
    const log = await logDuring(async () => {
      const response = await send('import-incoming', { file: '../big.log' }, chunked(4 * MiB))
      expect(response.status).toBe(422)
      const blank = await send('import-incoming', { file: ' ' }, 'x'.repeat(2 * MiB))
      expect(blank).toEqual({ status: 422, text: JSON.stringify({ error: 'file is empty: name the uploaded log file, e.g. file=billing/laravel.log.' }) })
    })
    expect(log).not.toMatch(BAD_LINE)
    // The worker is still answering normally.
    expect((await fetch(`${worker.url}/?api=health`)).status).toBe(200)
  })
})
