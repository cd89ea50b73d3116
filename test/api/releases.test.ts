import { createExecutionContext, env as baseEnv, waitOnExecutionContext } from 'cloudflare:test'
import { zipSync } from 'fflate'
import { beforeAll, describe, expect, it } from 'vitest'
import worker from '../../worker/index.ts'
import { call, createTestApp, get, ORIGIN, post, type ApiCall } from './helpers/api.ts'
import { appDatabase, readObject } from './ingestion-helpers.ts'

/**
 * Release tracking (reference §4.4, issue 14): deploys, release settings and the code-host link, the releases
 * ingested events name (registered by the digest, each issue's first and regressed release), and source maps
 * kept in the log bucket. `call` waits for the ingest's `waitUntil`, so the digest has run when it returns.
 */
const ENV: ApiCall['env'] = { SERVICE_SECRET: 'releases-test-secret' }

async function releasesApp(label: string): Promise<{ app: string; key: string }> {
  const app = await createTestApp(label)
  for (const id of ['http_ingest', 'releases']) expect((await post('plugins', { id, enabled: true }, { query: { app }, env: ENV })).status).toBe(200)
  const settings = await get('ingest-settings', { query: { app }, env: ENV })
  return { app, key: settings.body.key }
}

const api = (method: string, endpoint: string, app: string, options: ApiCall = {}) => call(method, endpoint, { ...options, query: { app, ...options.query }, env: ENV })

describe('release tracking', () => {
  let app: string
  let key: string
  const ingest = async (events: readonly Record<string, unknown>[]) => {
    const response = await call('POST', 'ingest', { query: { app }, env: ENV, body: { events }, headers: { 'X-Loupe-Ingest-Key': key } })
    expect(response.status, response.text).toBe(202)
  }
  const issueOf = async (q: string) => (await api('GET', 'issues', app, { query: { q } })).body.data[0]
  beforeAll(async () => {
    ;({ app, key } = await releasesApp('releases'))
  })

  it('is a 404 while the plugin is off', async () => {
    const off = await createTestApp('releases-off')
    for (const endpoint of ['deploys', 'release-settings', 'issue-releases', 'source-maps', 'releases']) {
      expect(await api('GET', endpoint, off)).toMatchObject({ status: 404, body: { error: 'This plugin is disabled for the selected application.' } })
    }
  })

  it('records deploys (201), refuses a duplicate version + environment and bad fields with 422, lists them with markers and deletes them', async () => {
    const first = await api('POST', 'deploys', app, { body: { version: ' shop@1.0.0 ', ref: 'abc123', notes: 'First', deployed_at: '2026-11-20T12:00:00+02:00' } })
    expect(first.status, first.text).toBe(201)
    expect(first.body).toEqual({ id: expect.any(Number), version: 'shop@1.0.0', environment: 'production', ref: 'abc123', notes: 'First', deployed_at: '2026-11-20 10:00:00', created_at: expect.any(String) })
    expect(await api('POST', 'deploys', app, { body: { version: 'shop@1.0.0' } })).toMatchObject({ status: 422, body: { error: 'Release shop@1.0.0 already exists for production.' } })
    const staging = await api('POST', 'deploys', app, { body: { version: 'shop@1.0.0', environment: 'staging', deployed_at: 1_700_000_000 } })
    expect(staging.status).toBe(201)
    expect(staging.body.deployed_at).toBe('2023-11-14 22:13:20')
    const recent = await api('POST', 'deploys', app, { body: { version: 'shop@1.1.0' } })
    expect(recent.status).toBe(201)
    for (const [body, error] of [
      [{}, 'version must be 1–120 characters.'],
      [{ version: '' }, 'version must be 1–120 characters.'],
      [{ version: 'x'.repeat(121) }, 'version must be 1–120 characters.'],
      [{ version: 7 }, 'version must be 1–120 characters.'],
      [{ version: 'v', environment: '' }, 'environment must be 1–120 characters.'],
      [{ version: 'v', ref: 'r'.repeat(201) }, 'ref must be at most 200 characters.'],
      [{ version: 'v', deployed_at: 'not a time' }, 'deployed_at must be a date and time.'],
      [{ version: 'v', deployed_at: true }, 'deployed_at must be a date and time.'],
    ] as const) {
      expect(await api('POST', 'deploys', app, { body }), JSON.stringify(body)).toMatchObject({ status: 422, body: { error } })
    }
    const list = await api('GET', 'deploys', app, { query: { days: 3650 } })
    expect(list.status).toBe(200)
    expect(list.body.data.map((d: { version: string; environment: string }) => `${d.version}/${d.environment}`)).toEqual(['shop@1.1.0/production', 'shop@1.0.0/production', 'shop@1.0.0/staging'])
    expect(list.body.data[1]).toMatchObject({ ref: 'abc123', notes: 'First', issue_count: 0 })
    expect(list.body.markers.map((m: { version: string }) => m.version)).toEqual(['shop@1.0.0', 'shop@1.0.0', 'shop@1.1.0'])
    expect(list.body.markers[1]).toEqual({ version: 'shop@1.0.0', environment: 'production', ref: 'abc123', deployed_at: '2026-11-20 10:00:00', day: '2026-11-20' })
    const lastWeek = await api('GET', 'deploys', app, { query: { days: 1, limit: 1 } })
    expect(lastWeek.body.data).toHaveLength(1)
    expect(lastWeek.body.markers.map((m: { version: string }) => m.version)).toEqual(['shop@1.1.0'])
    expect(await api('GET', 'deploys', app, { query: { limit: 201 } })).toMatchObject({ status: 422, body: { error: 'limit must be an integer from 1 to 200.' } })
    expect(await api('DELETE', 'deploys', app, { query: { id: staging.body.id } })).toMatchObject({ status: 200, body: { id: staging.body.id, deleted: true } })
    expect(await api('DELETE', 'deploys', app, { body: { id: staging.body.id } })).toMatchObject({ status: 404, body: { error: 'Release not found.' } })
    expect(await api('DELETE', 'deploys', app, { body: { id: 'x' } })).toMatchObject({ status: 422, body: { error: 'A valid deploy id is required.' } })
    expect(await api('PUT', 'deploys', app, { body: {} })).toMatchObject({ status: 405 })
  })

  it('saves release settings, validating the template and the default ref', async () => {
    expect((await api('GET', 'release-settings', app)).body).toEqual({ repo_url_template: '', default_ref: '', configured: false })
    for (const [body, error] of [
      [{ repo_url_template: 'ftp://host/{path}' }, 'repo_url_template must be an http(s) URL of at most 500 characters.'],
      [{ repo_url_template: `https://h/${'x'.repeat(500)}` }, 'repo_url_template must be an http(s) URL of at most 500 characters.'],
      [{ repo_url_template: 5 }, 'repo_url_template must be an http(s) URL of at most 500 characters.'],
      [{ default_ref: 'r'.repeat(121) }, 'default_ref must be at most 120 characters.'],
    ] as const) {
      expect(await api('PUT', 'release-settings', app, { body }), JSON.stringify(body)).toMatchObject({ status: 422, body: { error } })
    }
    const saved = await api('PUT', 'release-settings', app, { body: { repo_url_template: 'https://github.com/acme/app/blob/{ref}/{path}#L{line}' } })
    expect(saved.body).toEqual({ repo_url_template: 'https://github.com/acme/app/blob/{ref}/{path}#L{line}', default_ref: '', configured: true })
    expect((await api('PATCH', 'release-settings', app, { body: { default_ref: 'release 2' } })).body).toMatchObject({ default_ref: 'release 2', configured: true })
    expect((await api('POST', 'release-settings', app, { body: { default_ref: '' } })).body).toMatchObject({ repo_url_template: 'https://github.com/acme/app/blob/{ref}/{path}#L{line}', default_ref: '' })
  })

  it('registers the releases events name, links issues to them, and knows the release an issue was first seen and regressed in', async () => {
    await ingest([
      { message: 'Checkout exploded', exception_class: 'TypeError', stack: ['    at pay (/app/Services/Checkout.php:42:7)'], release: 'shop@1.0.0', occurred_at: '2026-11-21T10:00:00Z' },
      { message: 'Checkout exploded', exception_class: 'TypeError', stack: ['    at pay (/app/Services/Checkout.php:42:7)'], release: 'shop@1.0.1', occurred_at: '2026-11-21T11:00:00Z' },
      { message: 'Cart vanished', release: 'shop@1.0.1', occurred_at: '2026-11-21T12:00:00Z' },
      { message: 'No release here', occurred_at: '2026-11-21T12:00:00Z' },
    ])
    const checkout = await issueOf('Checkout exploded')
    expect(checkout.count).toBe(2)
    const releases = await api('GET', 'issue-releases', app, { query: { id: checkout.id } })
    expect(releases.status, releases.text).toBe(200)
    expect(releases.body).toEqual({
      releases: [
        { release: 'shop@1.0.1', occurrences: 1, first_seen: '2026-11-21 11:00:00', last_seen: '2026-11-21 11:00:00' },
        { release: 'shop@1.0.0', occurrences: 1, first_seen: '2026-11-21 10:00:00', last_seen: '2026-11-21 10:00:00' },
      ],
      first_release: 'shop@1.0.0',
      last_release: 'shop@1.0.1',
      introduced_in: 'shop@1.0.0',
      regressed_in: null,
      source_link: 'https://github.com/acme/app/blob/main/app/Services/Checkout.php#L42',
    })
    const none = await issueOf('No release here')
    expect((await api('GET', 'issue-releases', app, { query: { id: none.id } })).body).toMatchObject({ releases: [], first_release: null, last_release: null, introduced_in: null, regressed_in: null })
    expect(await api('GET', 'issue-releases', app, { query: { id: 999999 } })).toMatchObject({ status: 404, body: { error: 'Issue not found.' } })
    expect(await api('GET', 'issue-releases', app)).toMatchObject({ status: 422, body: { error: 'A valid issue id is required.' } })

    // Fixed, then seen again in 1.1.0: it regressed there; a second digest of the same rows changes nothing.
    expect((await api('POST', 'issue-status', app, { body: { id: checkout.id, status: 'fixed' } })).status).toBe(200)
    await ingest([{ message: 'Checkout exploded', exception_class: 'TypeError', stack: ['    at pay (/app/Services/Checkout.php:42:7)'], release: 'shop@1.1.0', occurred_at: '2026-11-22T09:00:00Z' }])
    expect((await issueOf('Checkout exploded')).status).toBe('reoccurred')
    expect((await api('GET', 'issue-releases', app, { query: { id: checkout.id } })).body).toMatchObject({ first_release: 'shop@1.0.0', last_release: 'shop@1.1.0', introduced_in: 'shop@1.0.0', regressed_in: 'shop@1.1.0' })

    const deploys = (await api('GET', 'deploys', app, { query: { days: 3650 } })).body.data
    expect(Object.fromEntries(deploys.map((d: { version: string; issue_count: number }) => [d.version, d.issue_count]))).toEqual({ 'shop@1.1.0': 1, 'shop@1.0.0': 1 })

    const list = (await api('GET', 'releases', app)).body.data
    expect(list).toEqual([
      { version: 'shop@1.1.0', first_seen: '2026-11-22 09:00:00', last_seen: '2026-11-22 09:00:00', issue_count: 1, new_issues: 0, regressed_issues: 1, source_maps: 0, deploys: 1, deployed_at: expect.any(String) },
      { version: 'shop@1.0.1', first_seen: '2026-11-21 11:00:00', last_seen: '2026-11-21 12:00:00', issue_count: 2, new_issues: 1, regressed_issues: 0, source_maps: 0, deploys: 0, deployed_at: null },
      { version: 'shop@1.0.0', first_seen: '2026-11-21 10:00:00', last_seen: '2026-11-21 10:00:00', issue_count: 1, new_issues: 1, regressed_issues: 0, source_maps: 0, deploys: 1, deployed_at: '2026-11-20 10:00:00' },
    ])
  })

  it('stores source maps in the log bucket (upsert on release + file), lists their metadata and deletes them', async () => {
    const map = { version: 3, file: 'app.min.js', sources: ['src/app.ts'], names: [], mappings: 'AAAA' }
    const created = await api('POST', 'source-maps', app, { body: { release: 'shop@1.1.0', url: 'https://shop.example/assets/app.min.js.map?v=2', map } })
    expect(created.status, created.text).toBe(201)
    const size = new TextEncoder().encode(JSON.stringify(map)).length
    expect(created.body).toEqual({ release: 'shop@1.1.0', file: 'app.min.js.map', size, stored: true })
    const again = await api('POST', 'source-maps', app, { body: { release: 'shop@1.1.0', file: 'app.min.js.map', content: JSON.stringify({ ...map, mappings: 'AAAA;AACA' }) } })
    expect(again.status).toBe(201)
    const list = await api('GET', 'source-maps', app)
    expect(list.body.data).toEqual([{ id: expect.any(Number), release: 'shop@1.1.0', file: 'app.min.js.map', size: size + 5, created_at: expect.any(String) }])
    expect((await api('GET', 'source-maps', app, { query: { release: 'other' } })).body.data).toEqual([])
    const { t, rows } = await appDatabase(app)
    const [row] = await rows<{ object_key: string }>(`SELECT object_key FROM ${t.sourceMaps}`)
    expect(row!.object_key).toMatch(/^source-maps\/[^/]+\/[0-9a-f]{64}\.map$/)
    expect(JSON.parse((await readObject(row!.object_key))!).mappings).toBe('AAAA;AACA')
    expect((await api('GET', 'releases', app)).body.data[0]).toMatchObject({ version: 'shop@1.1.0', source_maps: 1 })

    for (const [body, error] of [
      [{ file: 'a.js.map', map }, 'release must be 1–120 characters.'],
      [{ release: 'r', map }, 'file (or url) must name a file of at most 300 characters.'],
      [{ release: 'r', url: 'https://x/', map }, 'file (or url) must name a file of at most 300 characters.'],
      [{ release: 'r', file: 'a.js.map' }, 'map (or content) is required: a source map as a string or JSON object.'],
      [{ release: 'r', file: 'a.js.map', map: 'not json' }, 'The source map must be JSON containing "mappings".'],
      [{ release: 'r', file: 'a.js.map', map: { version: 3 } }, 'The source map must be JSON containing "mappings".'],
      [{ release: 'r', file: 'a.js.map', map: `{"mappings":"${'A'.repeat(16 * 1024 * 1024)}"}` }, 'The source map is larger than 16 MiB.'],
    ] as const) {
      expect(await api('POST', 'source-maps', app, { body }), JSON.stringify(body).slice(0, 80)).toMatchObject({ status: 422, body: { error } })
    }
    expect((await api('GET', 'source-maps', app)).body.data).toHaveLength(1)

    const id = list.body.data[0].id
    expect(await api('DELETE', 'source-maps', app, { query: { id } })).toMatchObject({ status: 200, body: { id, deleted: true } })
    expect(await readObject(row!.object_key)).toBeNull()
    expect(await api('DELETE', 'source-maps', app, { query: { id } })).toMatchObject({ status: 404, body: { error: 'Source map not found.' } })
  })
})

/** sentry-cli's calls (sentry-cli-protocol.md) at the origin's root; the real binary runs in test/e2e/sentry-cli.test.ts. */
describe('the sentry-cli endpoints', () => {
  const TOKEN = 'cli-token'
  let app: string
  const cli = async (method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => {
    const ctx = createExecutionContext()
    const init: RequestInit = { method, headers: { ...headers } }
    if (body instanceof FormData) init.body = body
    else if (body !== undefined) {
      init.body = JSON.stringify(body)
      ;(init.headers as Record<string, string>)['content-type'] = 'application/json'
    }
    const response = await worker.fetch(new Request(`${ORIGIN}/api/0/organizations/loupe/${path}`, init) as never, { ...baseEnv, ...ENV, SERVICE_TOKEN: TOKEN } as never, ctx)
    await waitOnExecutionContext(ctx)
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : undefined }
  }
  const sha1 = async (bytes: Uint8Array) => [...new Uint8Array(await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>))].map((b) => b.toString(16).padStart(2, '0')).join('')
  beforeAll(async () => {
    ;({ app } = await releasesApp('releases-cli'))
  })

  it('authenticates with the service token, names the application by project, and creates and finalizes releases', async () => {
    expect(await cli('POST', 'releases/', { version: 'cli@1', projects: [app] }, {})).toMatchObject({ status: 401 })
    expect(await cli('POST', 'releases/', { version: 'cli@1', projects: [app] }, { authorization: 'Bearer nope' })).toMatchObject({ status: 401 })
    expect(await cli('POST', 'releases/', { version: 'cli@1', projects: ['no-such-app'] })).toMatchObject({ status: 404, body: { error: 'Unknown project: the project names the application (its id or its numeric namespace).' } })
    const off = await createTestApp('releases-cli-off')
    expect(await cli('POST', 'releases/', { version: 'cli@1', projects: [off] })).toMatchObject({ status: 404, body: { error: 'This plugin is disabled for the selected application.' } })
    const created = await cli('POST', 'releases/', { version: 'cli@1', projects: [app], dateStarted: '2026-11-24T00:00:00Z' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ version: 'cli@1', dateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), projects: [{ slug: app }] })
    expect(await cli('PUT', 'releases/cli@2/', { projects: [app] })).toMatchObject({ status: 404, body: { error: 'Release not found.' } })
    expect(await cli('PUT', 'releases/cli@1/', { projects: [app], dateReleased: '2026-11-24T01:00:00Z' })).toMatchObject({ status: 200, body: { version: 'cli@1', dateReleased: '2026-11-24T01:00:00Z' } })
    expect((await api('GET', 'releases', app)).body.data.map((r: { version: string }) => r.version)).toEqual(['cli@1'])
  })

  it('takes gzip chunks named by their SHA-1 and assembles an artifact bundle into source maps', async () => {
    const options = await cli('GET', 'chunk-upload/')
    expect(options.body).toMatchObject({ url: '/api/0/organizations/loupe/chunk-upload/', hashAlgorithm: 'sha1', compression: ['gzip'], chunksPerRequest: expect.any(Number), chunkSize: expect.any(Number) })
    const encode = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value))
    const map = { version: 3, sources: ['../src/a.ts'], names: [], mappings: 'AAAA' }
    const manifest = {
      org: 'loupe',
      project: app,
      release: 'cli@1',
      files: {
        'files/_/_/app.min.js': { type: 'minified_source', url: '~/assets/app.min.js', headers: { sourcemap: 'maps/app.js.map' } },
        'files/_/_/maps/app.js.map': { type: 'source_map', url: '~/assets/maps/app.js.map' },
      },
    }
    const zip = zipSync({ 'manifest.json': encode(manifest), 'files/_/_/app.min.js': encode('var a=1'), 'files/_/_/maps/app.js.map': encode(map) })
    const checksum = await sha1(zip)
    const assemble = { checksum, chunks: [checksum], projects: [app], version: 'cli@1' }
    expect(await cli('POST', 'artifactbundle/assemble/', assemble)).toEqual({ status: 200, body: { state: 'not_found', missingChunks: [checksum] } })
    const wrong = new FormData()
    wrong.append('file', new Blob([zip]), '0'.repeat(40))
    expect(await cli('POST', 'chunk-upload/', wrong)).toMatchObject({ status: 422, body: { error: 'A chunk does not match its SHA-1 name.' } })
    const form = new FormData()
    form.append('file_gzip', new Blob([await new Response(new Blob([zip]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer()]), checksum)
    expect(await cli('POST', 'chunk-upload/', form)).toEqual({ status: 200, body: {} })
    expect(await cli('POST', 'artifactbundle/assemble/', assemble)).toEqual({ status: 200, body: { state: 'ok', missingChunks: [] } })
    expect((await api('GET', 'source-maps', app)).body.data).toEqual([expect.objectContaining({ release: 'cli@1', file: 'app.min.js', size: encode(map).length })])

    const broken = zipSync({ 'files/_/_/x.js': encode('x') })
    const brokenSum = await sha1(broken)
    const brokenForm = new FormData()
    brokenForm.append('file', new Blob([broken]), brokenSum)
    await cli('POST', 'chunk-upload/', brokenForm)
    expect(await cli('POST', 'artifactbundle/assemble/', { ...assemble, checksum: brokenSum, chunks: [brokenSum] })).toEqual({ status: 200, body: { state: 'error', missingChunks: [], detail: 'The artifact bundle has no manifest.json.' } })
    expect(await cli('POST', 'artifactbundle/assemble/', { ...assemble, checksum: 'x' })).toMatchObject({ status: 422, body: { error: 'checksum and chunks must be SHA-1 hex digests.' } })
  })
})
