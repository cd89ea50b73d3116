import { describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../drivers/migrations/index.ts'
import { DRIVER, ORIGIN, RUNTIME, call, createTestApp, get, post } from './helpers/api.ts'

const latest = (list: readonly { version: number }[]) => Math.max(...list.map((m) => m.version))

describe('health', () => {
  it('reports ready with versions, driver, schema state and warnings, without secrets', async () => {
    const response = await get('health', { env: { DATABASE_TOKEN: 'hunter2-secret' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.body.status).toBe('ok')
    expect(response.body.checks).toEqual({ runtime: 'ok', config: 'warnings', database: 'ok', migrations: 'ok', applications: 'ok' })
    expect(response.body.versions.database_driver).toBe(DRIVER)
    expect(response.body.versions.runtime).toMatch(RUNTIME === 'deno' ? /^Deno\/\d+\.\d+\.\d+$/ : /^Cloudflare-Workers$/)
    expect(response.body.versions.service).toMatch(/^\d+\.\d+\.\d+$/)
    expect(response.body.versions.database).toMatch(DRIVER === 'neon' ? /^PostgreSQL \d+/ : DRIVER === 'planetscale' ? /^(MariaDB|MySQL) \d+/ : /SQLite/)
    expect(response.body.versions.schema).toEqual({ registry: latest(MIGRATIONS.sqlite.registry), application: latest(MIGRATIONS.sqlite.application) })
    expect(response.body.config_warnings).toContain('No API token is set (SERVICE_TOKEN or auth.token): the API is open to anyone who can reach it.')
    expect(response.body.auth).toEqual({ token_required: false, secret_configured: false })
    expect(response.text).not.toContain('hunter2-secret')
    expect(response.text).not.toMatch(/postgres(ql)?:\/\/|mysql:\/\/|127\.0\.0\.1/)
  })

  it('drops the warnings once a token and a secret are set, and needs no token itself', async () => {
    const response = await get('health', { env: { SERVICE_TOKEN: 't0ken', SERVICE_SECRET: 's3cret' } })
    expect(response.status).toBe(200)
    expect(response.body.config_warnings).toEqual([])
    expect(response.body.checks.config).toBe('ok')
    expect(response.body.auth).toEqual({ token_required: true, secret_configured: true })
    expect(response.text).not.toContain('t0ken')
  })

  it('warns about configuration it cannot use', async () => {
    const response = await get('health', {
      env: { SERVICE_CONFIG: '{"pagination":{"default_limit":0},"nope":1}', SERVICE_URL: 'ftp://x', APP_DATABASES: '[1]' },
    })
    expect(response.body.config_warnings).toEqual(
      expect.arrayContaining([
        'SERVICE_CONFIG key "nope" is not recognised and was ignored.',
        'SERVICE_CONFIG pagination.default_limit must be an integer from 1 to 200; using 50.',
        'SERVICE_URL is not an http(s) URL and was ignored.',
        'APP_DATABASES is not a JSON object and was ignored.',
      ]),
    )
  })

  it('answers 503 without internals when the database is unreachable', async () => {
    const response = await get('health', { env: { DATABASE_DRIVER: 'libsql', DATABASE_URL: 'http://127.0.0.1:9/', DATABASE_TOKEN: 'tok-secret' } })
    expect(response.status).toBe(503)
    expect(response.body.status).toBe('degraded')
    expect(response.body.checks.database).toBe('unreachable')
    expect(response.text).not.toContain('tok-secret')
    expect(response.text).not.toContain('127.0.0.1:9')
  })

  it('answers 503 naming the setting when the database configuration is wrong', async () => {
    const response = await get('health', { env: { DATABASE_URL: 'http://db.example.test/', DATABASE_DRIVER: '' } })
    expect(response.status).toBe(503)
    expect(response.body.checks.database).toBe('misconfigured')
    expect(response.body.config_warnings).toContain('Set DATABASE_DRIVER: the http: scheme of DATABASE_URL does not imply a driver.')
  })

  it('is GET only', async () => {
    const response = await post('health', {})
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    expect(response.body).toEqual({ error: 'GET required.' })
  })
})

describe('dispatch and errors', () => {
  it('answers an unknown endpoint with 404 Unknown endpoint.', async () => {
    for (const api of ['nope', 'Tags', '../health', '']) {
      const response = await get(api)
      expect(response.status, api).toBe(404)
      expect(response.body).toEqual({ error: 'Unknown endpoint.' })
    }
  })

  it('answers a wrong method with 405 and Allow', async () => {
    const response = await call('DELETE', 'applications')
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST')
    expect(response.body).toEqual({ error: 'GET or POST required.' })
  })

  it('answers OPTIONS with the allowed methods', async () => {
    const response = await call('OPTIONS', 'applications')
    expect(response.status).toBe(204)
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS')
  })

  it('rejects malformed JSON with 400 and non-object JSON with 422', async () => {
    const malformed = await post('applications', '{"name": ')
    expect(malformed.status).toBe(400)
    expect(malformed.body).toEqual({ error: 'Request body must be valid JSON.' })
    const array = await post('applications', '[1,2]')
    expect(array.status).toBe(422)
    expect(array.body).toEqual({ error: 'Request body must be a JSON object.' })
  })

  it('rejects bodies over the limit with 413', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) })
    const response = await post('applications', big)
    expect(response.status).toBe(413)
    expect(response.body).toEqual({ error: 'Request body is too large (limit 1 MiB).' })
    const configured = await post('applications', JSON.stringify({ name: 'y'.repeat(3000) }), {
      env: { SERVICE_CONFIG: '{"limits":{"max_body_bytes":2048}}' },
    })
    expect(configured.status).toBe(413)
    expect(configured.body).toEqual({ error: 'Request body is too large (limit 2 KiB).' })
  })

  it('hides database failures behind a generic 503 or 500', async () => {
    const response = await get('applications', { env: { DATABASE_DRIVER: 'neon', DATABASE_URL: 'postgres://u:pw-secret@127.0.0.1:9/db', DATABASE_ENDPOINT: 'http://127.0.0.1:9/sql' } })
    expect(response.status).toBe(503)
    expect(response.body).toEqual({ error: 'The database is unavailable. Try again shortly.' })
    expect(response.text).not.toContain('pw-secret')
  })
})

describe('guard', () => {
  const TOKEN = { SERVICE_TOKEN: 'correct-horse' }

  it('requires the token on every endpoint when one is set', async () => {
    for (const [method, api] of [['GET', 'applications'], ['POST', 'applications'], ['GET', 'nope']] as const) {
      const response = await call(method, api, { env: TOKEN, body: method === 'POST' ? {} : undefined })
      expect(response.status, `${method} ${api}`).toBe(401)
      expect(response.body).toEqual({ error: 'A valid API key is required. Send it as X-Service-Token or Authorization: Bearer.' })
      expect(response.headers.get('www-authenticate')).toBe('Bearer')
    }
  })

  it('accepts the token as X-Service-Token or Authorization: Bearer', async () => {
    const viaHeader = await get('applications', { env: TOKEN, headers: { 'X-Service-Token': 'correct-horse' } })
    expect(viaHeader.status).toBe(200)
    const viaBearer = await get('applications', { env: TOKEN, headers: { Authorization: 'Bearer correct-horse' } })
    expect(viaBearer.status).toBe(200)
  })

  it('rejects a wrong token either way', async () => {
    const attempts: Record<string, string>[] = [{ 'X-Service-Token': 'wrong' }, { Authorization: 'Bearer correct-horse-' }, { Authorization: 'Basic correct-horse' }]
    for (const headers of attempts) {
      const response = await get('applications', { env: TOKEN, headers })
      expect(response.status).toBe(401)
    }
  })

  it('reads the token from SERVICE_CONFIG auth.token too', async () => {
    const env = { SERVICE_CONFIG: JSON.stringify({ 'auth.token': 'from-config' }) }
    expect((await get('applications', { env })).status).toBe(401)
    expect((await get('applications', { env, headers: { 'X-Service-Token': 'from-config' } })).status).toBe(200)
  })

  it('leaves health open', async () => {
    expect((await get('health', { env: TOKEN })).status).toBe(200)
  })

  it('exempts ingest and tracker-webhook from both checks (they authenticate themselves)', async () => {
    for (const api of ['ingest', 'tracker-webhook']) {
      const response = await post(api, {}, { env: TOKEN, headers: { Origin: 'https://evil.example' } })
      expect(response.status, api).not.toBe(401)
      expect(response.status, api).not.toBe(403)
    }
  })

  const name = () => `Origin ${Math.random().toString(36).slice(2, 8)}`
  const CROSS = { error: 'Cross-origin request blocked. State-changing requests must come from the same origin.' }

  it('blocks state-changing requests from a foreign origin with 403', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await call(method, 'applications', { body: { name: name() }, headers: { Origin: 'https://evil.example' } })
      expect(response.status, method).toBe(403)
      expect(response.body).toEqual(CROSS)
    }
  })

  it('checks the token before the origin', async () => {
    const response = await post('applications', { name: name() }, { env: TOKEN, headers: { Origin: 'https://evil.example' } })
    expect(response.status).toBe(401)
  })

  it('allows the same host, ignoring scheme and case, and rejects a different port', async () => {
    expect((await post('applications', { name: name() }, { headers: { Origin: ORIGIN } })).status).toBe(201)
    expect((await post('applications', { name: name() }, { headers: { Origin: 'https://LOUPE.test' } })).status).toBe(201)
    expect((await post('applications', { name: name() }, { headers: { Origin: 'http://loupe.test:8080' } })).status).toBe(201)
    const otherPort = { base: 'http://loupe.test:9090', headers: { Origin: 'http://loupe.test:8080' } }
    expect((await post('applications', { name: name() }, otherPort)).status).toBe(403)
    const samePort = { base: 'http://loupe.test:9090', headers: { Origin: 'https://loupe.test:9090' } }
    expect((await post('applications', { name: name() }, samePort)).status).toBe(201)
  })

  it('accepts the SERVICE_URL origin', async () => {
    const response = await post('applications', { name: name() }, { env: { SERVICE_URL: 'https://logs.example.com/' }, headers: { Origin: 'https://logs.example.com' } })
    expect(response.status).toBe(201)
  })

  it('lets requests without Origin and GET requests with a foreign Origin through', async () => {
    expect((await post('applications', { name: name() })).status).toBe(201)
    expect((await get('applications', { headers: { Origin: 'https://evil.example' } })).status).toBe(200)
    expect((await call('OPTIONS', 'applications', { headers: { Origin: 'https://evil.example' } })).status).toBe(204)
  })

  it('rejects an opaque "null" Origin on state-changing requests', async () => {
    expect((await post('applications', { name: name() }, { headers: { Origin: 'null' } })).status).toBe(403)
  })
})

describe('applications', () => {
  it('always has the default application first', async () => {
    const response = await get('applications')
    expect(response.status).toBe(200)
    expect(response.body.data[0]).toMatchObject({ id: 'default', name: 'Primary application', database: DRIVER, table_prefix: 'app1_' })
    expect(response.body.data[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  })

  it('registers an application with a slug id from its name, or the id given', async () => {
    const suffix = Math.random().toString(36).slice(2, 8)
    const fromName = await post('applications', { name: `  Billing Service ${suffix}! ` })
    expect(fromName.status).toBe(201)
    expect(fromName.body).toMatchObject({ id: `billing-service-${suffix}`, name: `Billing Service ${suffix}!`, database: DRIVER })
    expect(fromName.body.table_prefix).toMatch(/^app\d+_$/)
    const explicit = await post('applications', { name: 'Explicit', id: `explicit-${suffix}` })
    expect(explicit.status).toBe(201)
    expect(explicit.body.id).toBe(`explicit-${suffix}`)
    const list = await get('applications')
    expect(list.body.data.map((app: { id: string }) => app.id)).toEqual(expect.arrayContaining([`billing-service-${suffix}`, `explicit-${suffix}`]))
  })

  it('rejects reserved, duplicate and invalid ids and names with 422', async () => {
    const id = await createTestApp('dup')
    const cases: [unknown, string][] = [
      [{ name: 'x', id: 'default' }, "The application id 'default' is reserved."],
      [{ name: 'Again', id }, `An application with id '${id}' already exists.`],
      [{ name: 'x', id: 'Not A Slug' }, 'Application id must be 1–64 lower-case letters, digits or dashes.'],
      [{ name: 'x', id: 'a'.repeat(65) }, 'Application id must be 1–64 lower-case letters, digits or dashes.'],
      [{ name: '   ' }, 'Application name must contain 1–100 characters.'],
      [{ name: 'n'.repeat(101) }, 'Application name must contain 1–100 characters.'],
      [{ name: '!!!' }, 'Application id must be 1–64 lower-case letters, digits or dashes.'],
      [{}, 'name must be provided.'],
      [{ name: 5 }, 'name must be a string.'],
    ]
    for (const [body, message] of cases) {
      const response = await post('applications', body)
      expect(response.status, JSON.stringify(body)).toBe(422)
      expect(response.body).toEqual({ error: message })
    }
  })
})
