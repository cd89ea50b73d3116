import { createExecutionContext, env } from 'cloudflare:test'
import { createApp, createDeps } from '../../worker/app.ts'
import { openScope } from '../../worker/apps/open-scope.ts'
import { maintainApplication } from '../../worker/maintenance/maintain-application.ts'
import { cloudflareRuntime } from '../../worker/platform/cloudflare/cloudflare-runtime.ts'
import type { CloudflareEnv as Env } from '../../worker/platform/cloudflare/cloudflare-env.ts'
import { describe, expect, it } from 'vitest'
import { AwsClient } from 'aws4fetch'
import { NGINX_USER } from '../../tools/servers/nginx-user.ts'
import { S3_TEST_BUCKET, S3_TEST_KEYS } from '../../tools/servers/s3-keys.ts'
import { CONNECTOR_MESSAGES } from '../../shared/schemas/connectors.ts'
import { createTestApp, get, post, call } from './helpers/api.ts'
import { appDatabase, laravelLines, occurrenceStats, upload } from './ingestion-helpers.ts'
import {
  NGINX, SECRET, connectorEnv, createConnector, deleteRemote, drain, expectStatus, moveRemote, preview, previewAndSync, putRemote, recordingQueue, runById,
} from './connectors-helpers.ts'

const bucket = (env as unknown as { LOGS: R2Bucket }).LOGS
const S3 = (env as unknown as { S3_URL: string }).S3_URL

async function mirrors(app: string): Promise<Record<string, string>> {
  const listed = await bucket.list({ prefix: `sources/${app}/` })
  const out: Record<string, string> = {}
  for (const object of listed.objects) out[object.key.slice(object.key.lastIndexOf('/', object.key.lastIndexOf('/') - 1) + 1)] = (await (await bucket.get(object.key))!.text())
  return out
}

describe('connectors: http sources on a real nginx (reference §6, issue 15)', { timeout: 120_000 }, () => {
  it('syncs a new file, then only its appended tail, then nothing; the mirror is byte-exact', async () => {
    const app = await createTestApp('conn-append')
    const recorder = recordingQueue()
    const testEnv = connectorEnv(recorder)
    const url = `${NGINX}/files/${app}/app.log`
    const first = laravelLines(3)
    await putRemote(`files/${app}/app.log`, first)
    const connector = await createConnector(app, testEnv, 'Web logs', [url])
    expect(connector).toMatchObject({ name: 'Web logs', type: 'http', enabled: true, config: { urls: [url] }, has_credentials: false, credentials_hint: null, stream_count: 0, last_status: null })

    const one = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(one.plan).toMatchObject({ connector_id: connector.id, connector_name: 'Web logs', files: [{ path: url, size: first.length, action: 'new', bytes_to_fetch: first.length, will_sync: true }] })
    expect(one.plan.snapshot).toMatch(/^[0-9a-f]{64}$/)
    expect(one.plan.summary).toMatchObject({ files: 1, files_to_sync: 1, already_current: 0, bytes_to_fetch: first.length, actions: { new: 1, append: 0 } })
    expect(one.accepted).toEqual({ accepted: true, worker_started: true, run_ids: [expect.any(Number)] })
    expect(one.run).toMatchObject({ status: 'success', files_discovered: 1, files_completed: 1, files_updated: 1, bytes_total: first.length, bytes_fetched: first.length, events_indexed: 3, current_file: null, connector_name: 'Web logs', connector_type: 'http' })
    expect((await occurrenceStats(app)).occurrences).toBe(3)

    const more = laravelLines(2, { from: 3 })
    await putRemote(`files/${app}/app.log`, first + more)
    const two = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(two.plan.files).toMatchObject([{ action: 'append', bytes_to_fetch: more.length, size: first.length + more.length }])
    expect(two.run).toMatchObject({ status: 'success', bytes_fetched: more.length, events_indexed: 2 })
    expect(await occurrenceStats(app)).toEqual({ occurrences: 5, distinct: 5, count: 5, days: 5 })
    expect(Object.values(await mirrors(app))).toEqual([first + more])

    const three = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(three.plan.files).toMatchObject([{ action: 'unchanged', bytes_to_fetch: 0, will_sync: false }])
    expect(three.plan.summary).toMatchObject({ files_to_sync: 0, already_current: 1, bytes_to_fetch: 0 })
    expect(three.run).toMatchObject({ status: 'success', bytes_fetched: 0, events_indexed: 0 })
    expect((await occurrenceStats(app)).occurrences).toBe(5)
    // A remote log is written as it is read: a line cut off at the end waits for its line break.
    const line5 = laravelLines(1, { from: 5 })
    const line6 = laravelLines(1, { from: 6 })
    const cut = line6.length - 10
    await putRemote(`files/${app}/app.log`, first + more + line5 + line6.slice(0, cut))
    const four = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(four.plan.files).toMatchObject([{ action: 'append', bytes_to_fetch: line5.length + cut }])
    expect(four.run).toMatchObject({ status: 'success', bytes_fetched: line5.length + cut, events_indexed: 1 })
    await putRemote(`files/${app}/app.log`, first + more + line5 + line6)
    const five = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(five.plan.files).toMatchObject([{ action: 'append', bytes_to_fetch: 10 }])
    expect(five.run).toMatchObject({ status: 'success', events_indexed: 1 })
    // …and a last line that never ends is read once the file stops changing.
    const line7 = laravelLines(1, { from: 7 })
    const unterminated = laravelLines(1, { from: 8 }).trimEnd()
    await putRemote(`files/${app}/app.log`, first + more + line5 + line6 + line7 + unterminated)
    expect((await previewAndSync(app, recorder, testEnv, connector.id)).run).toMatchObject({ status: 'success', events_indexed: 1 })
    const settled = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(settled.plan.files).toMatchObject([{ action: 'index_local', bytes_to_fetch: 0 }])
    expect(settled.run).toMatchObject({ status: 'success', bytes_fetched: 0, events_indexed: 1 })
    expect((await previewAndSync(app, recorder, testEnv, connector.id)).plan.files).toMatchObject([{ action: 'unchanged' }])
    expect(await occurrenceStats(app)).toEqual({ occurrences: 9, distinct: 9, count: 9, days: 9 })
    const db = await appDatabase(app)
    expect(await db.value(`SELECT COUNT(*) FROM ${db.t.groups}`)).toBe(1) // no event was cut in two
    expect(Object.values(await mirrors(app))).toEqual([first + more + line5 + line6 + line7 + unterminated])

    const listed = await expectStatus(get('connectors', { query: { app }, env: testEnv }), 200)
    expect(listed.data).toMatchObject([{ id: connector.id, stream_count: 1, last_status: 'success', last_error: null }])
    expect(listed.data[0].last_synced_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
  })

  it('follows a logrotate rename and a truncation as new generations, counting every event once', async () => {
    const app = await createTestApp('conn-rotate')
    const recorder = recordingQueue()
    const testEnv = connectorEnv(recorder)
    const live = `${NGINX}/files/${app}/app.log`
    const rotated = `${NGINX}/files/${app}/app.log.1`
    await putRemote(`files/${app}/app.log`, laravelLines(3))
    const connector = await createConnector(app, testEnv, 'Rotating', [live, rotated])
    const first = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(first.plan.files).toMatchObject([{ path: live, action: 'new' }]) // app.log.1 does not exist yet (404: not discovered)

    await moveRemote(`files/${app}/app.log`, `files/${app}/app.log.1`)
    const fresh = laravelLines(2, { from: 100, level: 'WARNING' })
    await putRemote(`files/${app}/app.log`, fresh)
    const second = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(second.plan.files).toMatchObject([
      { path: live, action: 'rotation', bytes_to_fetch: fresh.length },
      { path: rotated, action: 'rename', bytes_to_fetch: 0 },
    ])
    expect(second.run).toMatchObject({ status: 'success', events_indexed: 2 })
    expect((await occurrenceStats(app)).occurrences).toBe(5)

    const truncated = laravelLines(1, { from: 500, level: 'CRITICAL' })
    await putRemote(`files/${app}/app.log`, truncated)
    const third = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(third.plan.files).toMatchObject([
      { path: live, action: 'rotation', bytes_to_fetch: truncated.length },
      { path: rotated, action: 'unchanged' },
    ])
    expect(third.run).toMatchObject({ status: 'success', events_indexed: 1 })
    expect((await occurrenceStats(app)).occurrences).toBe(6)
    expect(Object.keys(await mirrors(app)).sort()).toEqual([expect.stringMatching(/-g1\/app\.log$/), expect.stringMatching(/-g2\/app\.log$/), expect.stringMatching(/-g3\/app\.log$/)].sort())
    expect((await expectStatus(get('connectors', { query: { app, id: connector.id }, env: testEnv }), 200)).stream_count).toBe(3)
  })

  it('refuses a plan that changed after the preview, and one of two concurrent syncs supersedes the other', async () => {
    const app = await createTestApp('conn-plan')
    const recorder = recordingQueue()
    const testEnv = connectorEnv(recorder)
    await putRemote(`files/${app}/app.log`, laravelLines(4))
    const connector = await createConnector(app, testEnv, 'Plan', [`${NGINX}/files/${app}/app.log`])
    const plan = await preview(app, testEnv, connector.id)
    await putRemote(`files/${app}/app.log`, laravelLines(5))
    const accepted = await expectStatus(post('connectors-sync', { id: connector.id, snapshot: plan.snapshot }, { query: { app }, env: testEnv }), 202)
    await drain(recorder, testEnv)
    expect(await runById(app, testEnv, accepted.run_ids[0])).toMatchObject({ status: 'failed', message: CONNECTOR_MESSAGES.planChanged, events_indexed: 0 })
    expect((await expectStatus(get('connectors', { query: { app, id: connector.id }, env: testEnv }), 200))).toMatchObject({ last_status: 'failed', last_error: CONNECTOR_MESSAGES.planChanged })
    expect((await occurrenceStats(app)).occurrences).toBe(0)

    // Without an id: every enabled connector's plan, and a sync of all needs each one's confirmed snapshot.
    const all = await expectStatus(post('connectors-preview', {}, { query: { app }, env: testEnv }), 200)
    expect(all).toMatchObject({ results: [{ connector_id: connector.id, connector_name: 'Plan', files: [{ action: 'new' }] }], errors: [] })
    const unconfirmed = await post('connectors-sync', { snapshots: {} }, { query: { app }, env: testEnv })
    expect(unconfirmed.status).toBe(400)
    expect(unconfirmed.body).toEqual({ error: CONNECTOR_MESSAGES.notInPreview })
    expect(recorder.sent).toEqual([])

    const both = await Promise.all([1, 2].map(() => expectStatus(post('connectors-sync', { id: connector.id }, { query: { app }, env: testEnv }), 202)))
    await drain(recorder, testEnv)
    const runs = await Promise.all(both.map((answer) => runById(app, testEnv, answer.run_ids[0])))
    expect(runs.map((run) => run.status).sort()).toEqual(['failed', 'success'])
    expect(runs.find((run) => run.status === 'failed').message).toBe(CONNECTOR_MESSAGES.superseded)
    expect(await occurrenceStats(app)).toEqual({ occurrences: 5, distinct: 5, count: 5, days: 5 })

    // A run that stopped reporting progress is reaped when runs are read (reference §6: 900 s).
    const stuck = await expectStatus(post('connectors-sync', { id: connector.id }, { query: { app }, env: testEnv }), 202)
    recorder.sent.length = 0
    const db = await appDatabase(app)
    await db.db.execute({ sql: `UPDATE ${db.t.connectorRuns} SET status = 'running', updated_at = '2020-01-01 00:00:00' WHERE id = ?`, args: [stuck.run_ids[0]] })
    expect(await runById(app, testEnv, stuck.run_ids[0])).toMatchObject({ status: 'failed', message: CONNECTOR_MESSAGES.stale })
  })

  it('survives a connection dropped mid-file: nothing half-stored, the next sync completes without double counting', async () => {
    const app = await createTestApp('conn-drop')
    const recorder = recordingQueue()
    const testEnv = connectorEnv(recorder)
    const content = laravelLines(200) // ~15 KB: four 4 KiB chunks
    await putRemote(`flaky/${app}/big.log`, content)
    const connector = await createConnector(app, testEnv, 'Flaky', [`${NGINX}/flaky/${app}/big.log`])
    await putRemote(`drop/${app}`, 'on')
    const broken = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(broken.plan.files).toMatchObject([{ action: 'new', bytes_to_fetch: content.length }])
    expect(broken.run.status).toBe('failed')
    expect(broken.run.message).toContain(`${NGINX}/flaky/${app}/big.log`)
    expect(broken.run.bytes_fetched).toBe(4096) // the first chunk arrived, the second connection was dropped
    expect(await mirrors(app)).toEqual({})
    expect((await occurrenceStats(app)).occurrences).toBe(0)

    await deleteRemote(`drop/${app}`)
    const healed = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(healed.plan.files).toMatchObject([{ action: 'new' }])
    expect(healed.run).toMatchObject({ status: 'success', events_indexed: 200 })
    expect(await occurrenceStats(app)).toEqual({ occurrences: 200, distinct: 200, count: 200, days: 200 })
    expect(Object.values(await mirrors(app))).toEqual([content])
  })

  it('reconciles manual uploads of the same file instead of counting them twice', async () => {
    const app = await createTestApp('conn-manual')
    const recorder = recordingQueue()
    const testEnv = connectorEnv(recorder)
    const start = laravelLines(3)
    expect((await upload(app, 'shop.log', start)).status).toBe(200)
    const copy = laravelLines(2, { from: 40 })
    expect((await upload(app, 'copy.log', copy)).status).toBe(200)
    expect((await occurrenceStats(app)).occurrences).toBe(5)
    await putRemote(`files/${app}/shop.log`, start + laravelLines(2, { from: 3 }))
    await putRemote(`files/${app}/copy.log`, copy)
    const connector = await createConnector(app, testEnv, 'Manual', [`${NGINX}/files/${app}/shop.log`, `${NGINX}/files/${app}/copy.log`])
    const synced = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(synced.plan.files).toMatchObject([{ action: 'reconcile' }, { action: 'already_ingested' }])
    expect(synced.run).toMatchObject({ status: 'success', events_indexed: 2 })
    expect(await occurrenceStats(app)).toMatchObject({ occurrences: 7, count: 7, days: 7 })
    // And the other way round: uploading what a connector mirrored adds nothing.
    const again = await upload(app, 'other-name.log', start + laravelLines(2, { from: 3 }))
    expect(again.body.already_ingested).toEqual([{ path: 'other-name.log', same_as: expect.stringContaining(`sources/${app}/`) }])
    expect((await occurrenceStats(app)).occurrences).toBe(7)
  })

  it('keeps credentials sealed and unreturned, and answers connectors-test with what failed', async () => {
    const app = await createTestApp('conn-auth')
    const recorder = recordingQueue()
    const testEnv = connectorEnv(recorder)
    await putRemote(`files/${app}/secret.log`, laravelLines(2))
    const put = await fetch(`${NGINX}/private/${app}/secret.log`, { method: 'PUT', body: laravelLines(2), headers: { authorization: `Basic ${btoa(`${NGINX_USER.username}:${NGINX_USER.password}`)}` } })
    expect(put.status).toBe(201)
    const url = `${NGINX}/private/${app}/secret.log`
    const connector = await createConnector(app, testEnv, 'Private', [url])
    const denied = await post('connectors-test', { id: connector.id }, { query: { app }, env: testEnv })
    expect(denied.status).toBe(400)
    expect(denied.body).toEqual({ error: `${url}: access denied (401); check the connector's credentials.` })

    const wrong = await expectStatus(call('PATCH', 'connectors', { query: { app }, env: testEnv, body: { id: connector.id, credentials: { username: 'loupe', password: 'wrong' } } }), 200)
    expect(wrong).toMatchObject({ has_credentials: true, credentials_hint: 'basic auth (user loupe)' })
    expect((await post('connectors-test', { id: connector.id }, { query: { app }, env: testEnv })).status).toBe(400)
    const right = await call('PATCH', 'connectors', { query: { app }, env: testEnv, body: { id: connector.id, credentials: NGINX_USER } })
    expect(right.text).not.toContain(NGINX_USER.password)
    expect(await expectStatus(post('connectors-test', { id: connector.id }, { query: { app }, env: testEnv }), 200)).toEqual({ ok: true, message: 'Connection succeeded; discovered 1 of 1 configured log file URL(s).' })
    const listed = await get('connectors', { query: { app }, env: testEnv })
    expect(listed.text).not.toContain(NGINX_USER.password)
    expect(listed.text).not.toContain('secret_sealed')
    const synced = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(synced.run).toMatchObject({ status: 'success', events_indexed: 2 })

    // Redirects are answers, never followed (design.md §6).
    const redirected = await createConnector(app, testEnv, 'Redirect', [`${NGINX}/redirect/${app}/secret.log`])
    const refused = await post('connectors-test', { id: redirected.id }, { query: { app }, env: testEnv })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toContain('redirect (302); redirects are not followed')
    // Without the development switch, loopback targets are refused at every request, not only when saved.
    const strict = await post('connectors-test', { id: connector.id }, { query: { app }, env: connectorEnv(recorder, {}) })
    expect(strict.status).toBe(400)
    expect(strict.body.error).toBe(`${url}: only https:// URLs can be called`)
  })

  it('validates connector bodies with the reference messages and writes nothing on error', async () => {
    const app = await createTestApp('conn-crud')
    const recorder = recordingQueue()
    const testEnv = connectorEnv(recorder)
    const strictEnv = connectorEnv(recorder, {})
    const bad = async (body: unknown, error: string, status = 422, options = testEnv) => {
      const response = await post('connectors', body, { query: { app }, env: options })
      expect(response.status, response.text).toBe(status)
      expect(response.body).toEqual({ error })
    }
    const urls = [`https://logs.example.com/app.log`]
    await bad({ name: '', type: 'http', config: { urls } }, CONNECTOR_MESSAGES.name)
    await bad({ name: 'x'.repeat(101), type: 'http', config: { urls } }, CONNECTOR_MESSAGES.name)
    await bad({ name: 'A', type: 'ssh', config: { urls } }, CONNECTOR_MESSAGES.type)
    await bad({ name: 'A', type: 'http', config: 'x' }, CONNECTOR_MESSAGES.config)
    await bad({ name: 'A', type: 'http', config: { urls: [] } }, CONNECTOR_MESSAGES.httpUrls)
    await bad({ name: 'A', type: 'http', config: { urls: ['ftp://x.example.com/a.log'] } }, CONNECTOR_MESSAGES.httpUrls)
    await bad({ name: 'A', type: 'http', config: { urls: ['https://u:p@x.example.com/a.log'] } }, CONNECTOR_MESSAGES.httpUrls)
    await bad({ name: 'A', type: 'http', config: { urls: ['https://10.1.2.3/a.log'] } }, 'Connector URL rejected: 10.1.2.3 is not a public address.', 422, strictEnv)
    await bad({ name: 'A', type: 'http', config: { urls: ['https://169.254.169.254/latest'] } }, 'Connector URL rejected: 169.254.169.254 is not a public address.', 422, strictEnv)
    await bad({ name: 'A', type: 'http', config: { urls: ['https://[::1]/a.log'] } }, 'Connector URL rejected: [::1] is not a public address.', 422, strictEnv)
    await bad({ name: 'A', type: 'http', config: { urls: ['http://127.0.0.1/a.log'] } }, 'Connector URL rejected: only https:// URLs can be called.', 422, strictEnv)
    await bad({ name: 'A', type: 'http', config: { urls }, credentials: { token: 'x' } }, CONNECTOR_MESSAGES.credentials)
    await bad({ name: 'A', type: 'http', config: { urls }, credentials: { headers: { Range: 'bytes=0-' } } }, CONNECTOR_MESSAGES.credentials)
    await bad({ name: 'A', type: 'http', config: { urls }, enabled: 'yes' }, CONNECTOR_MESSAGES.enabled)
    await bad({ name: 'A', type: 'http', config: { urls }, module_id: 999_999 }, CONNECTOR_MESSAGES.moduleNotFound)
    await bad({ name: 'A', type: 'http', config: { urls }, sync_interval_minutes: 0 }, CONNECTOR_MESSAGES.interval)
    await bad({ name: 'A', type: 'http', config: { urls }, credentials: { headers: { Authorization: 'Bearer t' } } }, expect.stringContaining('SERVICE_SECRET is not set') as unknown as string, 422, {
      SERVICE_CONFIG: JSON.stringify({ connectors: { allow_local_targets: true } }),
    } as never)
    expect((await expectStatus(get('connectors', { query: { app }, env: testEnv }), 200)).data).toEqual([])

    const made = await expectStatus(post('connectors', { name: 'Shop', type: 'http', config: { urls }, credentials: { headers: { Authorization: 'Bearer t0k3n' } }, sync_interval_minutes: 60 }, { query: { app }, env: testEnv }), 201)
    expect(made).toMatchObject({ has_credentials: true, credentials_hint: 'headers: Authorization', sync_interval_minutes: 60 })
    await bad({ name: 'shop', type: 'http', config: { urls } }, CONNECTOR_MESSAGES.duplicate)
    const patched = await expectStatus(call('PATCH', 'connectors', { query: { app }, env: testEnv, body: { id: made.id, enabled: false, name: 'Shop logs' } }), 200)
    expect(patched).toMatchObject({ name: 'Shop logs', enabled: false, has_credentials: true, config: { urls } })
    const disabled = await post('connectors-sync', { id: made.id }, { query: { app }, env: testEnv })
    expect(disabled.status).toBe(400)
    expect(disabled.body).toEqual({ error: CONNECTOR_MESSAGES.disabled })
    expect(await expectStatus(post('connectors-sync', {}, { query: { app }, env: testEnv }), 202)).toEqual({ accepted: true, worker_started: false, run_ids: [] })
    expect((await post('connectors-sync', { id: made.id, snapshot: 'nope' }, { query: { app }, env: testEnv })).body).toEqual({ error: CONNECTOR_MESSAGES.snapshot })
    expect((await call('PATCH', 'connectors', { query: { app }, env: testEnv, body: { id: 999_999, name: 'x' } })).status).toBe(404)
    expect((await post('connectors-test', { id: 'abc' }, { query: { app }, env: testEnv })).body).toEqual({ error: CONNECTOR_MESSAGES.id })
    expect((await post('connectors-preview', { id: 999_999 }, { query: { app }, env: testEnv })).body).toEqual({ error: CONNECTOR_MESSAGES.notFound })
    // Another type's credentials do not carry over: s3 needs its own key pair.
    const retyped = await call('PATCH', 'connectors', { query: { app }, env: testEnv, body: { id: made.id, type: 's3', config: { endpoint: 'https://s3.example.com', bucket: 'logs' } } })
    expect(retyped.status).toBe(422)
    expect(retyped.body).toEqual({ error: CONNECTOR_MESSAGES.s3Credentials })
    const cleared = await expectStatus(call('PATCH', 'connectors', { query: { app }, env: testEnv, body: { id: made.id, credentials: null } }), 200)
    expect(cleared).toMatchObject({ has_credentials: false, credentials_hint: null })
    expect(await expectStatus(call('DELETE', 'connectors', { query: { app, id: made.id }, env: testEnv }), 200)).toEqual({ id: made.id, deleted: true })
    expect((await call('DELETE', 'connectors', { query: { app, id: made.id }, env: testEnv })).status).toBe(404)
    expect(recorder.sent).toEqual([])
    expect(SECRET).not.toBe('')
  })

  it('reads an S3-compatible bucket with SigV4 (aws4fetch; s3rver behind a signature check), and wrong keys fail connectors-test', async () => {
    const app = await createTestApp('conn-s3')
    const recorder = recordingQueue()
    const testEnv = connectorEnv(recorder)
    const client = new AwsClient({ ...S3_TEST_KEYS, service: 's3', region: 'us-east-1' })
    const putObject = async (key: string, body: string) => expect((await client.fetch(`${S3}/${S3_TEST_BUCKET}/${app}/${key}`, { method: 'PUT', body })).status).toBe(200)
    const first = laravelLines(3)
    await putObject('app.log', first)
    await putObject('readme.txt', 'not a log')
    const config = { endpoint: S3, region: 'us-east-1', bucket: S3_TEST_BUCKET, prefix: `${app}/`, path_style: true }
    const missing = await post('connectors', { name: 'Bucket', type: 's3', config }, { query: { app }, env: testEnv })
    expect(missing.status).toBe(422)
    expect(missing.body).toEqual({ error: CONNECTOR_MESSAGES.s3Credentials })
    const connector = await createConnector(app, testEnv, 'Bucket', [], { type: 's3', config, credentials: { access_key_id: S3_TEST_KEYS.accessKeyId, secret_access_key: 'not-the-secret' } })
    expect(connector).toMatchObject({ type: 's3', config: { ...config, endpoint: S3 }, has_credentials: true, credentials_hint: 'access key S3RV…' })
    const wrongSecret = await post('connectors-test', { id: connector.id }, { query: { app }, env: testEnv })
    expect(wrongSecret.status).toBe(400)
    expect(wrongSecret.body.error).toBe(`S3 bucket ${S3_TEST_BUCKET}: access denied (403 SignatureDoesNotMatch: The request signature we calculated does not match the signature you provided. Check your key and signing method.); check the connector's access key and secret.`)
    await expectStatus(call('PATCH', 'connectors', { query: { app }, env: testEnv, body: { id: connector.id, credentials: { access_key_id: 'AKIAWRONG', secret_access_key: 'x' } } }), 200)
    expect((await post('connectors-test', { id: connector.id }, { query: { app }, env: testEnv })).body.error).toContain('InvalidAccessKeyId')
    const fixed = await call('PATCH', 'connectors', { query: { app }, env: testEnv, body: { id: connector.id, credentials: { access_key_id: S3_TEST_KEYS.accessKeyId, secret_access_key: S3_TEST_KEYS.secretAccessKey } } })
    expect(fixed.text).not.toContain(`"${S3_TEST_KEYS.secretAccessKey}"`)
    expect(await expectStatus(post('connectors-test', { id: connector.id }, { query: { app }, env: testEnv }), 200)).toEqual({ ok: true, message: 'Connection succeeded; discovered 1 log file(s) in the bucket.' })

    const one = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(one.plan.files).toMatchObject([{ path: `s3://${S3_TEST_BUCKET}/${app}/app.log`, action: 'new', size: first.length }])
    expect(one.run).toMatchObject({ status: 'success', events_indexed: 3, bytes_fetched: first.length })
    const more = laravelLines(2, { from: 3 })
    await putObject('app.log', first + more)
    const two = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(two.plan.files).toMatchObject([{ action: 'append', bytes_to_fetch: more.length }])
    expect(two.run).toMatchObject({ status: 'success', events_indexed: 2, bytes_fetched: more.length })
    expect(await occurrenceStats(app)).toEqual({ occurrences: 5, distinct: 5, count: 5, days: 5 })
  })

  it('plans and syncs a bucket of more files than D1 binds parameters in one statement (101)', async () => {
    // The plan matched manual uploads with one `?` per listed file name: past 100 files D1 refused the statement.
    const app = await createTestApp('conn-s3-many')
    const recorder = recordingQueue()
    const testEnv = connectorEnv(recorder)
    const client = new AwsClient({ ...S3_TEST_KEYS, service: 's3', region: 'us-east-1' })
    const files = 101
    for (let i = 0; i < files; i++) {
      expect((await client.fetch(`${S3}/${S3_TEST_BUCKET}/${app}/app-${i}.log`, { method: 'PUT', body: laravelLines(1, { from: i }) })).status).toBe(200)
    }
    const config = { endpoint: S3, region: 'us-east-1', bucket: S3_TEST_BUCKET, prefix: `${app}/`, path_style: true }
    const connector = await createConnector(app, testEnv, 'Many', [], { type: 's3', config, credentials: { access_key_id: S3_TEST_KEYS.accessKeyId, secret_access_key: S3_TEST_KEYS.secretAccessKey } })
    const synced = await previewAndSync(app, recorder, testEnv, connector.id)
    expect(synced.plan.files).toHaveLength(files)
    expect(synced.plan.files.every((file: { action: string }) => file.action === 'new')).toBe(true)
    expect(synced.run).toMatchObject({ status: 'success', events_indexed: files })
    expect(await occurrenceStats(app)).toMatchObject({ occurrences: files })
  })

  it('runs connectors whose sync interval has passed from the cron trigger, through the queue or inline', async () => {
    const app = await createTestApp('conn-cron')
    const recorder = recordingQueue()
    const testEnv = connectorEnv(recorder)
    await putRemote(`files/${app}/cron.log`, laravelLines(2))
    const hourly = await createConnector(app, testEnv, 'Hourly', [`${NGINX}/files/${app}/cron.log`], { sync_interval_minutes: 60 })
    await createConnector(app, testEnv, 'Manual only', [`${NGINX}/files/${app}/cron.log`])
    const cron = async (bindings: Record<string, unknown>) => {
      const deps = createDeps({ ...env, ...bindings } as unknown as Env, createExecutionContext(), createApp({ runtime: cloudflareRuntime }))
      await maintainApplication(deps, await openScope(deps, app))
    }
    await cron(testEnv as Record<string, unknown>)
    expect(recorder.sent).toEqual([{ app, connector_run: expect.any(Number) }]) // only the connector with an interval
    await drain(recorder, testEnv)
    const runs = await expectStatus(get('connectors-runs', { query: { app }, env: testEnv }), 200)
    expect(runs.data).toMatchObject([{ connector_id: hourly.id, status: 'success', events_indexed: 2 }])
    await cron(testEnv as Record<string, unknown>) // synchronized moments ago: not due
    expect(recorder.sent).toEqual([])

    // A queued run whose message was lost (untouched for 15 minutes) is sent again.
    const lost = await expectStatus(post('connectors-sync', { id: hourly.id }, { query: { app }, env: testEnv }), 202)
    recorder.sent.length = 0
    const db = await appDatabase(app)
    await db.db.execute({ sql: `UPDATE ${db.t.connectorRuns} SET updated_at = '2020-01-01 00:00:00' WHERE id = ?`, args: [lost.run_ids[0]] })
    await cron(testEnv as Record<string, unknown>)
    expect(recorder.sent).toEqual([{ app, connector_run: lost.run_ids[0] }])
    await drain(recorder, testEnv)
    expect(await runById(app, testEnv, lost.run_ids[0])).toMatchObject({ status: 'success', events_indexed: 0 })

    // Due again (last synchronized over an hour ago), and no queue bound: the cron trigger runs it inline.
    await db.db.execute({ sql: `UPDATE ${db.t.connectors} SET last_synced_at = '2020-01-01 00:00:00' WHERE id = ?`, args: [hourly.id] })
    await putRemote(`files/${app}/cron.log`, laravelLines(3))
    await cron({ ...(testEnv as Record<string, unknown>), IMPORT_QUEUE: undefined })
    const after = await expectStatus(get('connectors-runs', { query: { app }, env: testEnv }), 200)
    expect(after.data).toMatchObject([{ connector_id: hourly.id, status: 'success', events_indexed: 1 }, { status: 'success' }, { status: 'success' }])
    expect((await occurrenceStats(app)).occurrences).toBe(3)
  })
})
