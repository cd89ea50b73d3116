import { describe, expect, it } from 'vitest'
import { missingSecretMessage } from '../../worker/security/secret-box.ts'
import { ALERTS_LOCAL_TARGETS_WARNING } from '../../worker/plugins/alerts/alerts-config.ts'
import { createTestApp } from './helpers/api.ts'
import { appDatabase } from './ingestion-helpers.ts'
import { alertCall, alertingApp, createChannel, createRule, expectStatus, hookUrl, received } from './alerts-helpers.ts'

const DISABLED = { error: 'This plugin is disabled for the selected application.' }

describe('alerting: the plugin switch (reference §4.1)', () => {
  it('answers 404 on every alerting endpoint while the plugin is off', async () => {
    const app = await createTestApp('alerts-off')
    for (const [method, api] of [['GET', 'alert-channels'], ['POST', 'alert-channels'], ['GET', 'alert-rules'], ['DELETE', 'alert-rules'], ['POST', 'alert-test'], ['GET', 'alert-events']]) {
      const response = await alertCall(method!, api!, app, { body: method === 'GET' ? undefined : {} })
      expect([method, api, response.status, response.body]).toEqual([method, api, 404, DISABLED])
    }
  })
})

describe('alerting configuration', () => {
  it('has health warn while local targets are allowed, and not otherwise', async () => {
    const on = await alertCall('GET', 'health', 'default')
    expect(on.body.config_warnings).toContain(ALERTS_LOCAL_TARGETS_WARNING)
    const off = await alertCall('GET', 'health', 'default', { env: { SERVICE_CONFIG: '{"alerts":{"timeout_ms":5000}}' } })
    expect(off.body.config_warnings).not.toContain(ALERTS_LOCAL_TARGETS_WARNING)
    const bad = await alertCall('GET', 'health', 'default', { env: { SERVICE_CONFIG: '{"alerts":{"timeout_ms":60000}}' } })
    expect(bad.body.config_warnings).toContain('SERVICE_CONFIG alerts.timeout_ms must be an integer from 100 to 10000; using 10000.')
  })
})

describe('alert-channels (reference §4.2)', () => {
  it('creates, lists, updates and deletes channels, never returning the URL', async () => {
    const app = await alertingApp('alert-channels')
    const secret = hookUrl('secret-path-4711')
    const created = await createChannel(app, { name: '  Ops room  ', type: 'slack', url: secret.url })
    expect(created).toEqual({ id: expect.any(Number), name: 'Ops room', type: 'slack', enabled: true, target_hint: new URL(secret.url).host, created_at: expect.any(String), updated_at: null })
    const webhook = await createChannel(app, { name: 'Pager', type: 'WEBHOOK', url: hookUrl('pager').url, enabled: false })
    expect(webhook).toMatchObject({ type: 'webhook', enabled: false })

    const list = await alertCall('GET', 'alert-channels', app)
    expect(list.body.data.map((channel: { name: string }) => channel.name)).toEqual(['Pager', 'Ops room'])
    expect(list.text).not.toContain('secret-path-4711')

    // An empty or absent URL keeps the stored one; other fields given replace.
    const renamed = await expectStatus(alertCall('PATCH', 'alert-channels', app, { body: { id: created.id, name: 'Ops', url: '' } }), 200)
    expect(renamed).toMatchObject({ id: created.id, name: 'Ops', type: 'slack', enabled: true, target_hint: new URL(secret.url).host, updated_at: expect.any(String) })
    const toggled = await expectStatus(alertCall('PUT', 'alert-channels', app, { query: { id: created.id }, body: { enabled: false } }), 200)
    expect(toggled).toMatchObject({ name: 'Ops', enabled: false })

    // Stored sealed: the URL is nowhere in the database in clear.
    const db = await appDatabase(app)
    const rows = await db.rows<{ url_sealed: string }>(`SELECT url_sealed FROM ${db.t.alertChannels}`)
    expect(rows).toHaveLength(2)
    for (const row of rows) expect(row.url_sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/)

    expect(await expectStatus(alertCall('DELETE', 'alert-channels', app, { body: { id: webhook.id } }), 200)).toEqual({ id: webhook.id, deleted: true })
    expect((await alertCall('GET', 'alert-channels', app)).body.data.map((channel: { id: number }) => channel.id)).toEqual([created.id])
    expect(await alertCall('DELETE', 'alert-channels', app, { body: { id: webhook.id } })).toMatchObject({ status: 404, body: { error: 'Alert channel not found.' } })
    expect(await alertCall('PATCH', 'alert-channels', app, { body: { id: 999999, name: 'x' } })).toMatchObject({ status: 404, body: { error: 'Alert channel not found.' } })
  })

  it.each([
    [{ type: 'slack', url: 'https://hooks.example.com/x' }, 'Channel name must be 1–120 characters.'],
    [{ name: '   ', type: 'slack', url: 'https://hooks.example.com/x' }, 'Channel name must be 1–120 characters.'],
    [{ name: 'x'.repeat(121), type: 'slack', url: 'https://hooks.example.com/x' }, 'Channel name must be 1–120 characters.'],
    [{ name: 'A', type: 'email', url: 'https://hooks.example.com/x' }, 'Channel type must be slack, discord, or webhook.'],
    [{ name: 'A', url: 'https://hooks.example.com/x' }, 'Channel type must be slack, discord, or webhook.'],
    [{ name: 'A', type: 'slack' }, 'A channel URL is required.'],
    [{ name: 'A', type: 'slack', url: '' }, 'A channel URL is required.'],
    [{ name: 'A', type: 'slack', url: 42 }, 'Channel URL must be a valid https:// URL.'],
    [{ name: 'A', type: 'slack', url: 'not a url' }, 'Channel URL must be a valid https:// URL.'],
    [{ name: 'A', type: 'slack', url: 'http://hooks.example.com/x' }, 'Channel URL must be a valid https:// URL.'],
    [{ name: 'A', type: 'slack', url: 'ftp://hooks.example.com/x' }, 'Channel URL must be a valid https:// URL.'],
    [{ name: 'A', type: 'slack', url: 'https://10.1.2.3/x' }, 'Channel URL rejected: the address is private.'],
    [{ name: 'A', type: 'slack', url: 'https://127.0.0.1:8787/x' }, 'Channel URL rejected: the address is loopback.'],
    [{ name: 'A', type: 'slack', url: 'https://2130706433/x' }, 'Channel URL rejected: the address is loopback.'],
    [{ name: 'A', type: 'slack', url: 'https://169.254.169.254/latest/meta-data' }, 'Channel URL rejected: the address is link-local (cloud metadata lives there).'],
    [{ name: 'A', type: 'slack', url: 'https://[::1]/x' }, 'Channel URL rejected: the address is loopback.'],
    [{ name: 'A', type: 'slack', url: 'https://[::ffff:192.168.1.1]/x' }, 'Channel URL rejected: the address is private.'],
    [{ name: 'A', type: 'slack', url: 'https://[fd00::1]/x' }, 'Channel URL rejected: the address is private (unique local).'],
    [{ name: 'A', type: 'slack', url: 'https://localhost/x' }, 'Channel URL rejected: localhost is this machine.'],
    [{ name: 'A', type: 'slack', url: 'https://metadata.google.internal/x' }, 'Channel URL rejected: metadata.google.internal is a private network name.'],
    [{ name: 'A', type: 'slack', url: 'https://intranet/x' }, 'Channel URL rejected: intranet is not a public host name.'],
    [{ name: 'A', type: 'slack', url: 'https://user:pw@hooks.example.com/x' }, 'Channel URL rejected: credentials in the URL are not allowed.'],
    [{ name: 'A', type: 'slack', url: 'https://hooks.example.com/x', enabled: 'yes' }, 'enabled must be true or false.'],
  ])('refuses %j with 422 "%s" (local targets not allowed) and stores nothing', async (body, message) => {
    const app = await alertingApp('alert-channel-input')
    const response = await alertCall('POST', 'alert-channels', app, { body, env: { SERVICE_CONFIG: '{}' } })
    expect([response.status, response.body]).toEqual([422, { error: message }])
    expect((await alertCall('GET', 'alert-channels', app)).body.data).toEqual([])
  })

  it('refuses to store a channel without SERVICE_SECRET (422 naming what to set), and accepts public https URLs', async () => {
    const app = await alertingApp('alert-channel-secret')
    const response = await alertCall('POST', 'alert-channels', app, { body: { name: 'A', type: 'discord', url: 'https://discord.com/api/webhooks/1/abc' }, env: { SERVICE_SECRET: '' } })
    expect([response.status, response.body]).toEqual([422, { error: missingSecretMessage('the alert channel URL') }])
    const ok = await alertCall('POST', 'alert-channels', app, { body: { name: 'A', type: 'discord', url: 'https://discord.com/api/webhooks/1/abc' }, env: { SERVICE_CONFIG: '{}' } })
    expect([ok.status, ok.body.target_hint]).toEqual([201, 'discord.com'])
  })
})

describe('alert-rules (reference §4.2)', () => {
  it('creates rules with the reference defaults, lists them with channel and module names, updates and deletes', async () => {
    const app = await alertingApp('alert-rules')
    const channel = await createChannel(app, { name: 'Ops', type: 'webhook', url: hookUrl('rules').url })
    const module = await expectStatus(alertCall('POST', 'modules', app, { body: { name: 'Billing' } }), 201)
    const rule = await createRule(app, { name: ' New errors ', channel_id: String(channel.id), trigger_type: 'new_error' })
    expect(rule).toEqual({
      id: expect.any(Number),
      name: 'New errors',
      channel_id: channel.id,
      trigger_type: 'new_error',
      severities: [],
      module_id: null,
      min_count: 1,
      spike_factor: 3,
      cooldown_minutes: 60,
      enabled: true,
      last_triggered_at: null,
      created_at: expect.any(String),
      updated_at: null,
      channel_name: 'Ops',
      channel_type: 'webhook',
      module_name: null,
      module_slug: null,
    })
    const spike = await createRule(app, {
      name: 'Billing spikes',
      channel_id: channel.id,
      trigger_type: 'SPIKE',
      severities: ['error', 'BOGUS', 'critical', 'ERROR'],
      module_id: module.id,
      min_count: '5',
      spike_factor: 2.5,
      cooldown_minutes: 0,
      enabled: false,
    })
    expect(spike).toMatchObject({ trigger_type: 'spike', severities: ['CRITICAL', 'ERROR'], module_id: module.id, module_name: 'Billing', module_slug: module.slug, min_count: 5, spike_factor: 2.5, cooldown_minutes: 0, enabled: false })
    expect((await alertCall('GET', 'alert-rules', app)).body.data.map((r: { id: number }) => r.id)).toEqual([spike.id, rule.id])

    const updated = await expectStatus(alertCall('PATCH', 'alert-rules', app, { body: { id: rule.id, min_count: 3, severities: [] } }), 200)
    expect(updated).toMatchObject({ name: 'New errors', min_count: 3, severities: [], trigger_type: 'new_error', updated_at: expect.any(String) })
    const moved = await expectStatus(alertCall('PUT', 'alert-rules', app, { body: { id: spike.id, module_id: null } }), 200)
    expect(moved).toMatchObject({ module_id: null, module_name: null, severities: ['CRITICAL', 'ERROR'] })

    expect(await expectStatus(alertCall('DELETE', 'alert-rules', app, { query: { id: rule.id } }), 200)).toEqual({ id: rule.id, deleted: true })
    expect(await alertCall('DELETE', 'alert-rules', app, { query: { id: rule.id } })).toMatchObject({ status: 404, body: { error: 'Alert rule not found.' } })
    // Deleting a channel deletes its rules.
    await expectStatus(alertCall('DELETE', 'alert-channels', app, { body: { id: channel.id } }), 200)
    expect((await alertCall('GET', 'alert-rules', app)).body.data).toEqual([])
  })

  it.each([
    [{ channel_id: 1, trigger_type: 'new_error' }, 'Rule name must be 1–120 characters.'],
    [{ name: 'R', trigger_type: 'new_error' }, 'A valid alert channel id is required.'],
    [{ name: 'R', channel_id: 'abc', trigger_type: 'new_error' }, 'A valid alert channel id is required.'],
    [{ name: 'R', channel_id: 999999, trigger_type: 'new_error' }, 'Alert channel not found.'],
    [{ name: 'R', channel_id: 'CHANNEL' }, 'Trigger must be new_error, reoccurrence, or spike.'],
    [{ name: 'R', channel_id: 'CHANNEL', trigger_type: 'email' }, 'Trigger must be new_error, reoccurrence, or spike.'],
    [{ name: 'R', channel_id: 'CHANNEL', trigger_type: 'spike', severities: 'ERROR' }, 'severities must be a list of severity names.'],
    [{ name: 'R', channel_id: 'CHANNEL', trigger_type: 'spike', module_id: 999999 }, 'Module not found.'],
    [{ name: 'R', channel_id: 'CHANNEL', trigger_type: 'spike', module_id: 'x' }, 'module_id must be a module id or null.'],
    [{ name: 'R', channel_id: 'CHANNEL', trigger_type: 'spike', min_count: 0 }, 'min_count must be a whole number of at least 1.'],
    [{ name: 'R', channel_id: 'CHANNEL', trigger_type: 'spike', min_count: 1.5 }, 'min_count must be a whole number of at least 1.'],
    [{ name: 'R', channel_id: 'CHANNEL', trigger_type: 'spike', spike_factor: 1.4 }, 'spike_factor must be a number of at least 1.5.'],
    [{ name: 'R', channel_id: 'CHANNEL', trigger_type: 'spike', cooldown_minutes: -1 }, 'cooldown_minutes must be a whole number from 0 to 525600 (a year).'],
    [{ name: 'R', channel_id: 'CHANNEL', trigger_type: 'spike', enabled: 1 }, 'enabled must be true or false.'],
  ])('refuses %j with 422 "%s" and stores nothing', async (body, message) => {
    const app = await alertingApp('alert-rule-input')
    const channel = await createChannel(app, { name: 'Ops', type: 'webhook', url: hookUrl('rule-input').url })
    const given: Record<string, unknown> = body
    const response = await alertCall('POST', 'alert-rules', app, { body: { ...given, ...(given.channel_id === 'CHANNEL' ? { channel_id: channel.id } : {}) } })
    expect([response.status, response.body]).toEqual([422, { error: message }])
    expect((await alertCall('GET', 'alert-rules', app)).body.data).toEqual([])
  })
})

describe('alert-test (reference §4.2)', () => {
  it('sends the test alert in each channel format, byte for byte', async () => {
    const app = await alertingApp('alert-test-formats')
    const expected = {
      slack: JSON.stringify({ text: '✅ *Test* — Alerting is connected.\n• [INFO] This is a test notification. (1×)' }),
      discord: JSON.stringify({ content: '✅ **Test** — Alerting is connected.\n• [INFO] This is a test notification. (1×)' }),
      webhook: JSON.stringify({ trigger: 'test', summary: 'Alerting is connected.', items: [{ severity: 'INFO', title: 'This is a test notification.', count: 1 }], more: 0, url: null }),
    }
    for (const type of ['slack', 'discord', 'webhook'] as const) {
      const hook = hookUrl(`test-${type}`)
      const channel = await createChannel(app, { name: type, type, url: hook.url, enabled: false })
      expect(await expectStatus(alertCall('POST', 'alert-test', app, { body: { id: channel.id } }), 200)).toEqual({ ok: true, detail: 'HTTP 200' })
      const [request, ...more] = await received(hook.name)
      expect(more).toEqual([])
      expect(request).toEqual({ method: 'POST', path: new URL(hook.url).pathname, contentType: 'application/json', userAgent: 'Loupe-Alerts/1', body: expected[type] })
    }
    // The service URL, when configured, is the alert's link.
    const hook = hookUrl('test-url')
    const channel = await createChannel(app, { name: 'linked', type: 'webhook', url: hook.url })
    await expectStatus(alertCall('POST', 'alert-test', app, { body: { id: channel.id }, env: { SERVICE_URL: 'https://loupe.example.com' } }), 200)
    expect(JSON.parse((await received(hook.name))[0]!.body).url).toBe('https://loupe.example.com')
  })

  it('reports failures: retries 5xx twice, never a 4xx, never follows a redirect', async () => {
    const app = await alertingApp('alert-test-failures')
    const cases = [
      { query: 'status=503', result: { ok: false, detail: 'HTTP 503 (3 attempts)' }, posts: 3 },
      { query: 'fail=2', result: { ok: true, detail: 'HTTP 200' }, posts: 3 },
      { query: 'status=404', result: { ok: false, detail: 'HTTP 404' }, posts: 1 },
      { query: 'delay_ms=3000', result: { ok: false, detail: 'timed out after 1 s (3 attempts)' }, posts: 3 },
    ]
    for (const { query, result, posts } of cases) {
      const hook = hookUrl('failing', query)
      const channel = await createChannel(app, { name: query, type: 'webhook', url: hook.url })
      expect(await expectStatus(alertCall('POST', 'alert-test', app, { body: { id: channel.id } }), 200)).toEqual(result)
      expect((await received(hook.name)).length).toBe(posts)
    }
    const inside = hookUrl('inside')
    const bounce = hookUrl('bounce', `status=302&location=${encodeURIComponent(inside.url)}`)
    const channel = await createChannel(app, { name: 'redirect', type: 'webhook', url: bounce.url })
    expect(await expectStatus(alertCall('POST', 'alert-test', app, { body: { id: channel.id } }), 200)).toEqual({ ok: false, detail: 'HTTP 302' })
    expect(await received(inside.name)).toEqual([])
  })

  it('re-checks the target at delivery: a local channel is refused once local targets are no longer allowed', async () => {
    const app = await alertingApp('alert-test-recheck')
    const hook = hookUrl('recheck')
    const channel = await createChannel(app, { name: 'local', type: 'webhook', url: hook.url })
    const response = await alertCall('POST', 'alert-test', app, { body: { id: channel.id }, env: { SERVICE_CONFIG: '{}' } })
    expect(response.body).toEqual({ ok: false, detail: 'refused: Channel URL must be a valid https:// URL.' })
    expect(await received(hook.name)).toEqual([])
  })

  it('answers 422 without a valid id and 404 for an unknown channel', async () => {
    const app = await alertingApp('alert-test-input')
    expect(await alertCall('POST', 'alert-test', app, { body: {} })).toMatchObject({ status: 422, body: { error: 'A valid alert channel id is required.' } })
    expect(await alertCall('POST', 'alert-test', app, { body: { id: 999999 } })).toMatchObject({ status: 404, body: { error: 'Alert channel not found.' } })
    expect(await alertCall('POST', 'alert-test', app, { body: '{' })).toMatchObject({ status: 400 })
  })
})
