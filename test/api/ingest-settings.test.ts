import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../worker/app.ts'
import { cloudflareRuntime } from '../../worker/platform/cloudflare/cloudflare-runtime.ts'
import { missingSecretMessage } from '../../worker/security/secret-box.ts'
import { createTestApp, get, post, type ApiCall } from './helpers/api.ts'
import { appDatabase } from './ingestion-helpers.ts'

/** `?api=ingest-settings` (reference §4.3), through the shipped worker. */
const worker = createApp({ runtime: cloudflareRuntime })
const SECRET = { SERVICE_SECRET: 'test-secret-for-ingest-keys' }
const KEY = /^lpk_[0-9a-f]{48}$/

describe('?api=ingest-settings', () => {
  let app: string
  const call = (extra: ApiCall = {}): ApiCall => ({ query: { app }, worker, ...extra, env: { ...SECRET, ...extra.env } })
  beforeAll(async () => {
    app = await createTestApp('ingest-settings')
    expect((await post('plugins', { id: 'http_ingest', enabled: true }, call())).status).toBe(200)
  })

  it('is a 404 while the plugin is off for the application', async () => {
    const other = await createTestApp('ingest-off')
    expect(await get('ingest-settings', { query: { app: other }, env: SECRET })).toMatchObject({ status: 404, body: { error: 'This plugin is disabled for the selected application.' } })
    expect((await post('plugins', { id: 'http_ingest', enabled: true }, { query: { app: other } })).status).toBe(200)
    expect((await get('ingest-settings', { query: { app: other }, env: SECRET })).status).toBe(200)
  })

  it('refuses to mint a key without SERVICE_SECRET, storing nothing', async () => {
    const response = await get('ingest-settings', { query: { app }, worker, env: { SERVICE_SECRET: '' } })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({ error: missingSecretMessage('the ingest key') })
    const { t, rows } = await appDatabase(app)
    expect(await rows(`SELECT value FROM ${t.settings} WHERE value LIKE 'v1.%'`)).toEqual([])
  })

  it('mints the key on the first read, sealed at rest, and answers the same key afterwards', async () => {
    const first = await get('ingest-settings', call())
    expect(first.status, first.text).toBe(200)
    expect(first.body).toEqual({
      ingest_url: `http://loupe.test/?api=ingest&app=${app}`,
      key: expect.stringMatching(KEY),
      key_header: 'X-Loupe-Ingest-Key',
      dsn: expect.stringMatching(/^http:\/\/lpk_[0-9a-f]{48}@loupe\.test\/[1-9]\d*$/),
      rate_limit: { max_events: 1000, window_seconds: 60 },
    })
    expect(first.body.dsn.startsWith(`http://${first.body.key}@`)).toBe(true)
    expect((await get('ingest-settings', call())).body.key).toBe(first.body.key)
    const { t, rows } = await appDatabase(app)
    const stored = await rows<{ value: string }>(`SELECT value FROM ${t.settings} WHERE value LIKE 'v1.%'`)
    expect(stored).toHaveLength(1)
    expect(stored[0]!.value).not.toContain(first.body.key.slice(4))
  })

  it('gives concurrent first readers one key', async () => {
    const fresh = await createTestApp('ingest-race')
    await post('plugins', { id: 'http_ingest', enabled: true }, { query: { app: fresh }, worker })
    const reads = await Promise.all(Array.from({ length: 6 }, () => get('ingest-settings', { query: { app: fresh }, worker, env: SECRET })))
    const keys = new Set(reads.map((read) => read.body.key))
    expect(keys.size).toBe(1)
    expect([...keys][0]).toMatch(KEY)
  })

  it('regenerates the key on request, and refuses any other action', async () => {
    const before = (await get('ingest-settings', call())).body.key
    const regenerated = await post('ingest-settings', { action: 'regenerate' }, call())
    expect(regenerated.status).toBe(200)
    expect(regenerated.body).toEqual({ key: expect.stringMatching(KEY) })
    expect(regenerated.body.key).not.toBe(before)
    expect((await get('ingest-settings', call())).body.key).toBe(regenerated.body.key)
    for (const body of [{}, { action: 'rotate' }, { action: ['regenerate'] }]) {
      const refused = await post('ingest-settings', body, call())
      expect(refused.status).toBe(422)
      expect(refused.body).toEqual({ error: 'Unsupported action.' })
    }
  })

  it('builds the ingest URL from ingest.url or SERVICE_URL, and reports the configured rate limit', async () => {
    const configured = { SERVICE_CONFIG: JSON.stringify({ ingest: { url: 'https://ingest.example.com/collect?v=1', rate_max_events: 250, rate_window_seconds: 10 } }) }
    expect((await get('ingest-settings', call({ env: configured }))).body).toMatchObject({
      ingest_url: `https://ingest.example.com/collect?v=1&app=${app}`,
      rate_limit: { max_events: 250, window_seconds: 10 },
    })
    expect((await get('ingest-settings', call({ env: { SERVICE_URL: 'https://logs.example.com/' } }))).body.ingest_url).toBe(`https://logs.example.com/?api=ingest&app=${app}`)
    const bad = { SERVICE_CONFIG: JSON.stringify({ ingest: { url: 'ftp://x', rate_window_seconds: 0 } }) }
    expect((await get('health', { worker, env: bad })).body.config_warnings).toEqual(
      expect.arrayContaining(['SERVICE_CONFIG ingest.url must be an absolute http(s) URL; using null.', 'SERVICE_CONFIG ingest.rate_window_seconds must be an integer from 1 to 86400; using 60.']),
    )
  })

  it('does not open with another SERVICE_SECRET: a clear 400 instead of a wrong key', async () => {
    const response = await get('ingest-settings', call({ env: { SERVICE_SECRET: 'another-secret' } }))
    expect(response.status).toBe(400)
    expect(response.body.error).toMatch(/^A stored secret could not be decrypted/)
  })
})
