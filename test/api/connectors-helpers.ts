import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test'
import worker from '../../worker/index.ts'
import type { JobMessage } from '../../worker/jobs/job-message.ts'
import type { CloudflareEnv as Env } from '../../worker/platform/cloudflare/cloudflare-env.ts'
import { call, get, post, type ApiCall, type ApiResponse } from './helpers/api.ts'

/**
 * Helpers of the connector parity tests (test/api/connectors*.test.ts). Remote log files live on the real nginx
 * the global setup starts (tools/servers/nginx.ts) and are written over WebDAV. Synchronizations go through a
 * recording queue and are delivered to the worker's real `queue` handler by `drain`, so each test sees its runs
 * finish with its own configuration (the Queue consumer of the test runtime has the default bindings).
 */
export const NGINX = (env as unknown as { NGINX_URL: string }).NGINX_URL
export const SECRET = 'connectors-test-secret'
export const CONNECTOR_CONFIG = { allow_local_targets: true, timeout_ms: 5000, chunk_bytes: 4096 }

export function recordingQueue() {
  const sent: JobMessage[] = []
  return { sent, queue: { send: async (body: JobMessage) => void sent.push(body), sendBatch: async () => {} } }
}

export type Recorder = ReturnType<typeof recordingQueue>

/** The bindings every call of a test uses: a secret, local targets allowed, small chunks, the recording queue. */
export function connectorEnv(recorder: Recorder, config: Record<string, unknown> = CONNECTOR_CONFIG) {
  return { SERVICE_SECRET: SECRET, SERVICE_CONFIG: JSON.stringify({ connectors: config }), IMPORT_QUEUE: recorder.queue } as unknown as ApiCall['env']
}

/** Delivers every recorded message (and those they send in turn) to the worker's `queue` handler. */
export async function drain(recorder: Recorder, testEnv: ApiCall['env']): Promise<number> {
  let delivered = 0
  while (recorder.sent.length > 0) {
    const body = recorder.sent.shift()!
    const batch = createMessageBatch<JobMessage>('loupe-imports', [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body }])
    const ctx = createExecutionContext()
    await worker.queue(batch as MessageBatch<unknown>, { ...env, ...testEnv } as unknown as Env, ctx)
    const result = await getQueueResult(batch, ctx)
    if (result.explicitAcks.length !== 1) throw new Error(`message ${JSON.stringify(body)} was not acknowledged: ${JSON.stringify(result)}`)
    delivered++
    if (delivered > 50) throw new Error('the queue did not drain')
  }
  return delivered
}

/** Writes a remote file (WebDAV PUT) at `path` below the nginx root, e.g. `files/<app>/app.log`. */
export async function putRemote(path: string, body: string): Promise<void> {
  const response = await fetch(`${NGINX}/${path}`, { method: 'PUT', body })
  if (response.status !== 201 && response.status !== 204) throw new Error(`PUT ${path}: ${response.status}`)
}

export async function moveRemote(from: string, to: string): Promise<void> {
  const response = await fetch(`${NGINX}/${from}`, { method: 'MOVE', headers: { destination: `${NGINX}/${to}`, overwrite: 'T' } })
  if (response.status !== 201 && response.status !== 204) throw new Error(`MOVE ${from}: ${response.status}`)
}

export async function deleteRemote(path: string): Promise<void> {
  const response = await fetch(`${NGINX}/${path}`, { method: 'DELETE' })
  if (response.status !== 204 && response.status !== 404) throw new Error(`DELETE ${path}: ${response.status}`)
}

export async function expectStatus(response: Promise<ApiResponse> | ApiResponse, status: number): Promise<any> {
  const answer = await response
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${answer.text}`)
  return answer.body
}

/** Creates a connector over `urls` and returns it. */
export async function createConnector(app: string, testEnv: ApiCall['env'], name: string, urls: string[], extra: Record<string, unknown> = {}) {
  return expectStatus(post('connectors', { name, type: 'http', config: { urls }, ...extra }, { query: { app }, env: testEnv }), 201)
}

export async function preview(app: string, testEnv: ApiCall['env'], id: number) {
  return expectStatus(post('connectors-preview', { id }, { query: { app }, env: testEnv }), 200)
}

/** Preview, sync with its snapshot, deliver the run; returns the plan and the finished run. */
export async function previewAndSync(app: string, recorder: Recorder, testEnv: ApiCall['env'], id: number) {
  const plan = await preview(app, testEnv, id)
  const accepted = await expectStatus(post('connectors-sync', { id, snapshot: plan.snapshot }, { query: { app }, env: testEnv }), 202)
  await drain(recorder, testEnv)
  return { plan, accepted, run: await runById(app, testEnv, accepted.run_ids[0]) }
}

export async function runById(app: string, testEnv: ApiCall['env'], id: number) {
  const runs = await expectStatus(get('connectors-runs', { query: { app, limit: 100 }, env: testEnv }), 200)
  return runs.data.find((run: { id: number }) => run.id === id)
}

export { call }
