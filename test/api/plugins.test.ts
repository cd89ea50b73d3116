import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../worker/app.ts'
import { cloudflareRuntime } from '../../worker/platform/cloudflare/cloudflare-runtime.ts'
import { OperationalError } from '../../worker/errors.ts'
import { pluginCatalog } from '../../worker/plugins/catalog.ts'
import { definePlugin } from '../../worker/plugins/plugin.ts'
import { defineSection, integerSetting } from '../../worker/config/config-section.ts'
import { json } from '../../worker/http/respond.ts'
import { appSettings } from '../../worker/settings/app-settings.ts'
import { call, createTestApp, DRIVER, get, post } from './helpers/api.ts'
import { createIssue, expectRoundTrips } from './helpers/fixtures.ts'
import { topicLines } from './import-harness.ts'
import { appDatabase, upload } from './ingestion-helpers.ts'

const CATALOG = [
  { id: 'tracker', name: 'Issue tracker', category: 'Integration', status: 'active', enabled: true, last_error: null },
  { id: 'alerts', name: 'Alerting', category: 'Notifications', status: 'active', enabled: false, last_error: null },
  { id: 'http_ingest', name: 'HTTP ingest', category: 'Ingestion', status: 'active', enabled: false, last_error: null },
  { id: 'releases', name: 'Release tracking', category: 'Insights', status: 'active', enabled: false, last_error: null },
  { id: 'access_analytics', name: 'Access-log analytics', category: 'Insights', status: 'active', enabled: false, last_error: null },
]

describe('?api=plugins — the built-in catalog (reference §3.5, §4.1)', () => {
  let app: string
  beforeAll(async () => {
    app = await createTestApp('plugins')
  })

  it('lists the five built-ins in catalog order; the tracker is on by default (reference §4.5)', async () => {
    const response = await get('plugins', { query: { app } })
    expect(response.status).toBe(200)
    expect(response.body.data.map(({ description, ...rest }: { description: string }) => rest)).toEqual(CATALOG)
    for (const plugin of response.body.data) expect(plugin.description.length).toBeGreaterThan(20)
  })

  it.each([
    [{}, 'id and enabled are required.'],
    [{ id: 'alerts' }, 'id and enabled are required.'],
    [{ enabled: true }, 'id and enabled are required.'],
    [{ id: 'alerts', enabled: 'yes' }, 'enabled must be true or false.'],
    [{ id: 'alerts', enabled: 1 }, 'enabled must be true or false.'],
    [{ id: 'nope', enabled: true }, 'Unknown plugin: nope.'],
    [{ id: 42, enabled: true }, 'Unknown plugin: 42.'],
  ])('refuses %j with 422 "%s" and changes nothing', async (body, message) => {
    const response = await post('plugins', body, { query: { app } })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({ error: message })
    expect((await get('plugins', { query: { app } })).body.data.filter((plugin: { enabled: boolean }) => plugin.enabled).map((plugin: { id: string }) => plugin.id)).toEqual(['tracker'])
  })

  it('switches a plugin off and answers with the catalog', async () => {
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const response = await call(method, 'plugins', { query: { app }, body: { id: 'tracker', enabled: false } })
      expect(response.status, response.text).toBe(200)
      expect(response.body.data.find((plugin: { id: string }) => plugin.id === 'tracker').enabled).toBe(false)
    }
  })

  it('answers other methods with 405 and an unknown application with 422', async () => {
    const response = await call('DELETE', 'plugins', { query: { app } })
    expect(response.status).toBe(405)
    expect(response.body).toEqual({ error: 'GET, POST, PUT, or PATCH required.' })
    expect((await get('plugins', { query: { app: 'no-such-app' } })).status).toBe(422)
  })
})

/**
 * A plugin built for this test, served by a worker built with it (`createApp({ plugins })`): its route, its
 * switch, and its hooks — `afterIngest` and `statusChanged` — through the real request paths.
 */
const probeSettings = defineSection('probe', { echo_limit: integerSetting(1, 10, 3) })
const probe = definePlugin({
  id: 'probe',
  name: 'Probe',
  description: 'Records what the hooks see.',
  category: 'Insights',
  status: 'active',
  defaultEnabled: false,
  config: probeSettings,
  routes: [{ endpoint: 'probe-echo', handlers: { GET: (_request, deps) => json({ echoed: true, settings: deps.config.section(probeSettings) }) } }],
  hooks: {
    async statusChanged(change) {
      if (change.note === 'fail with a message') throw new OperationalError('The tracker answered HTTP 401.')
      if (change.note === 'fail with internals') throw new Error('SQLITE_ERROR: no such table app7_x at /worker/x.ts:12')
      return { seen: `${change.fromStatus}→${change.status}` }
    },
    async afterIngest(event) {
      await event.scope.db.execute(appSettings.write(event.scope, 'probe.ingested', `${event.via}:${event.events}`, '2026-01-01 00:00:00'))
    },
  },
})
/** Every built-in is active now; a planned plugin is listed and cannot be switched on (reference §3.5). */
const upcoming = definePlugin({ id: 'upcoming', name: 'Upcoming', description: 'Listed before it is built.', category: 'Insights', status: 'planned', defaultEnabled: false })
const worker = createApp({ plugins: pluginCatalog([upcoming, probe]), runtime: cloudflareRuntime })

describe('a plugin: its routes, switch and hooks', () => {
  let app: string
  let issueId: number
  beforeAll(async () => {
    app = await createTestApp('probe')
    issueId = (await createIssue(app, { title: 'Probe target' })).id
  })
  const lastError = async () => (await get('plugins', { query: { app }, worker })).body.data.find((plugin: { id: string }) => plugin.id === 'probe').last_error

  it('answers 404 on its routes while off, and serves them once switched on', async () => {
    const off = await get('probe-echo', { query: { app }, worker })
    expect(off.status).toBe(404)
    expect(off.body).toEqual({ error: 'This plugin is disabled for the selected application.' })
    // The default worker does not know the endpoint at all.
    expect((await get('probe-echo', { query: { app } })).body).toEqual({ error: 'Unknown endpoint.' })
    const status = await post('issue-status', { id: issueId, status: 'fixed' }, { query: { app }, worker })
    expect(status.body).toEqual({ id: issueId, from_status: 'open', status: 'fixed', note: null })

    const toggled = await post('plugins', { id: 'probe', enabled: true }, { query: { app }, worker })
    expect(toggled.status).toBe(200)
    expect(toggled.body.data.at(-1)).toMatchObject({ id: 'probe', status: 'active', enabled: true, last_error: null })
    expect((await get('probe-echo', { query: { app }, worker })).body).toEqual({ echoed: true, settings: { echo_limit: 3 } })
    // Another application keeps its own switch.
    const other = await createTestApp('probe-other')
    expect((await get('probe-echo', { query: { app: other }, worker })).status).toBe(404)
  })

  it('refuses to switch a planned plugin on, and allows switching it off', async () => {
    const on = await post('plugins', { id: 'upcoming', enabled: true }, { query: { app }, worker })
    expect([on.status, on.body]).toEqual([422, { error: 'The Upcoming plugin is not available yet.' }])
    const off = await post('plugins', { id: 'upcoming', enabled: false }, { query: { app }, worker })
    expect(off.status).toBe(200)
    expect(off.body.data.find((plugin: { id: string }) => plugin.id === 'upcoming')).toMatchObject({ status: 'planned', enabled: false })
  })

  it('reads its own configuration section, whose bad values are health warnings', async () => {
    const env = { SERVICE_CONFIG: JSON.stringify({ probe: { echo_limit: 7 } }) }
    expect((await get('probe-echo', { query: { app }, worker, env })).body.settings).toEqual({ echo_limit: 7 })
    const bad = { SERVICE_CONFIG: JSON.stringify({ probe: { echo_limit: 70 } }) }
    expect((await get('health', { worker, env: bad })).body.config_warnings).toContain('SERVICE_CONFIG probe.echo_limit must be an integer from 1 to 10; using 3.')
    // A worker without the plugin does not know the section.
    expect((await get('health', { env: bad })).body.config_warnings).toContain('SERVICE_CONFIG key "probe.echo_limit" is not recognised and was ignored.')
  })

  it('merges the statusChanged result under the plugin id', async () => {
    const response = await post('issue-status', { id: issueId, status: 'wont_fix' }, { query: { app }, worker })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ id: issueId, from_status: 'fixed', status: 'wont_fix', note: null, probe: { seen: 'fixed→wont_fix' } })
    // The switches, and the reads hooks declare (the tracker's link and settings), are in the status change's own
    // batch: still one round trip. PlanetScale sends the history row that applies the change (migration 0019),
    // then the from-status read, the switches (with the tracker's setting) and the link, concurrently (was 8).
    expectRoundTrips(response, 1, 4)
  })

  it('keeps a failing hook away from the status change, shows it as last_error, and clears it on the next success', async () => {
    const failed = await post('issue-status', { id: issueId, status: 'open', note: 'fail with a message' }, { query: { app }, worker })
    expect(failed.status).toBe(200)
    expect(failed.body).toEqual({ id: issueId, from_status: 'wont_fix', status: 'open', note: 'fail with a message' })
    expect(await lastError()).toMatchObject({ hook: 'statusChanged', message: 'The tracker answered HTTP 401.' })
    expect((await lastError()).at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

    // An unexpected error's text may carry internals: the owner is pointed at the log instead.
    await post('issue-status', { id: issueId, status: 'open', note: 'fail with internals' }, { query: { app }, worker })
    expect((await lastError()).message).toBe('The statusChanged hook failed unexpectedly; the worker log has the details.')

    const ok = await post('issue-status', { id: issueId, status: 'fixed' }, { query: { app }, worker })
    expect(ok.body.probe).toEqual({ seen: 'open→fixed' })
    expect(await lastError()).toBeNull()
  })

  it('runs afterIngest once an import finishes, with the events it stored', async () => {
    const response = await upload(app, 'probe/app.log', topicLines('probe', 7), { worker })
    expect(response.status, response.text).toBe(200)
    expect(response.body.events).toBe(7)
    const { db, t, rows } = await appDatabase(app)
    const key = db.dialect.quote('key')
    expect(await rows(`SELECT value FROM ${t.settings} WHERE ${key} = 'probe.ingested'`)).toEqual([{ value: 'file:7' }])
  })

  it('reads the switches of afterIngest plugins with the import settings: an import with alerting on costs no extra round trip', async () => {
    const plain = createApp({ plugins: [], runtime: cloudflareRuntime })
    const [alerting, bare] = [await createTestApp('rt-alerting'), await createTestApp('rt-bare')]
    expect((await post('plugins', { id: 'alerts', enabled: true }, { query: { app: alerting } })).status).toBe(200)
    for (const name of ['warm.log', 'measured.log']) {
      const on = await upload(alerting, `rt/${name}`, topicLines(name, 3))
      const off = await upload(bare, `rt/${name}`, topicLines(name, 3), { worker: plain })
      expect([on.status, off.status]).toEqual([200, 200])
      // PlanetScale sends a read batch's statements as concurrent requests: one more, in parallel with the others.
      if (name === 'measured.log') expect(on.roundTrips).toBe(off.roundTrips + (DRIVER === 'planetscale' ? 1 : 0))
    }
  })

  it('runs no hook while the plugin is off', async () => {
    await post('plugins', { id: 'probe', enabled: false }, { query: { app }, worker })
    const response = await post('issue-status', { id: issueId, status: 'wont_fix', note: 'fail with a message' }, { query: { app }, worker })
    expect(response.body).toEqual({ id: issueId, from_status: 'fixed', status: 'wont_fix', note: 'fail with a message' })
    expect(await lastError()).toBeNull()
  })
})
