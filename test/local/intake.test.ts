/**
 * Uploads under `wrangler dev` with the real local Queue, D1 and R2 (what `npm start` runs): the same bytes
 * under a second name are recognised while the archive copy streams through `crypto.DigestStream` (which the
 * parity suite's runtime also offers as a global, production does not), and concurrent uploaders that never
 * retry all get their events counted once, through the real queue consumer (issue 10 defects 6 and 7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWorker, type RunningWorker } from '../../tools/worker-process.ts'
import { apiClient } from '../e2e/helpers/api.ts'

let worker: RunningWorker
let api: ReturnType<typeof apiClient>['call']

beforeAll(async () => {
  worker = await startWorker({}, 'local-intake')
  api = apiClient(worker.url).call
}, 120_000)

afterAll(async () => {
  await worker?.stop()
})

function lines(topic: string, count: number): string {
  let text = ''
  for (let i = 0; i < count; i++) text += `[2026-03-01 10:00:${String(i % 60).padStart(2, '0')}] production.ERROR: Checkout failed in ${topic} service\n`
  return text
}

describe('uploads under wrangler dev', { timeout: 120_000 }, () => {
  it('reports the same bytes under another name as already imported', async () => {
    const log = lines('ledger', 3)
    expect(await api('import-incoming', { query: { file: 'ledger/app.log' }, raw: log })).toMatchObject({ events: 3, already_ingested: [] })
    expect(await api('import-incoming', { query: { file: 'ledger/app.log.1' }, raw: log })).toMatchObject({
      events: 0,
      skipped: 1,
      already_ingested: [{ path: 'ledger/app.log.1', same_as: 'ledger/app.log' }],
    })
  })

  it('counts every event of 12 concurrent uploads once, whether imported at once or accepted while another import ran', async () => {
    const topics = Array.from({ length: 12 }, (_, i) => `team${String.fromCharCode(97 + i)}`)
    const send = (topic: string, i: number) =>
      fetch(`${worker.url}/?api=import-incoming&file=crowd/${topic}.log`, { method: 'POST', body: lines(topic, i + 1) }).then(async (response) => ({ status: response.status, body: await response.json() }))
    const responses = await Promise.all(topics.map(send))
    expect(responses.map((response) => response.status).filter((status) => status !== 200 && status !== 202)).toEqual([])
    for (;;) {
      const status = await api('import-incoming')
      if (status.pending.files === 0 && !status.data.some((job: { status: string }) => job.status === 'queued' || job.status === 'running')) break
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const issues = (await api('issues', { query: { q: 'Checkout failed in team', limit: 100 } })).data as { title: string; count: number }[]
    expect(Object.fromEntries(issues.map((issue) => [issue.title, issue.count]))).toEqual(Object.fromEntries(topics.map((topic, i) => [`Checkout failed in ${topic} service`, i + 1])))
  })
})
