import { createExecutionContext, env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createApp, createDeps } from '../../worker/app.ts'
import { openScope } from '../../worker/apps/open-scope.ts'
import type { CloudflareEnv } from '../../worker/platform/cloudflare/cloudflare-env.ts'
import { cloudflareRuntime } from '../../worker/platform/cloudflare/cloudflare-runtime.ts'
import { ALERTS_SECTION } from '../../worker/plugins/alerts/alerts-config.ts'
import { scanAlerts } from '../../worker/plugins/alerts/alert-scan.ts'
import { maintainApplication } from '../../worker/maintenance/maintain-application.ts'
import { appDatabase } from './ingestion-helpers.ts'
import {
  ALERT_ENV,
  alertCall,
  alertEvents,
  alertingApp,
  createChannel,
  createRule,
  expectStatus,
  hookUrl,
  laravelEntries,
  received,
  uploadLog,
} from './alerts-helpers.ts'

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000)

/** A webhook channel on a fresh receiver address, and a rule on it; returns the receiver name. */
async function webhookRule(app: string, rule: Record<string, unknown>, query = ''): Promise<{ name: string; channel: any; rule: any }> {
  const hook = hookUrl('scan', query)
  const channel = await createChannel(app, { name: 'Hook', type: 'webhook', url: hook.url })
  return { name: hook.name, channel, rule: await createRule(app, { name: 'Rule', channel_id: channel.id, ...rule }) }
}

const bodies = async (name: string) => (await received(name)).map((request) => JSON.parse(request.body))

describe('alerting scans after ingest (reference §4.2)', () => {
  it('never replays the backlog: issues from before alerting was set up send nothing, the next new one does', async () => {
    const app = await alertingApp('alert-backlog')
    await alertCall('POST', 'plugins', app, { body: { id: 'alerts', enabled: false } })
    await uploadLog(app, laravelEntries([{ at: minutesAgo(5), message: 'Backlog alpha failed' }, { at: minutesAgo(4), message: 'Backlog beta failed' }]))
    await alertCall('POST', 'plugins', app, { body: { id: 'alerts', enabled: true } })
    const { name } = await webhookRule(app, { trigger_type: 'new_error', cooldown_minutes: 0 })
    await uploadLog(app, laravelEntries([{ at: minutesAgo(3), message: 'Backlog alpha failed' }]))
    expect(await received(name)).toEqual([])
    expect(await alertEvents(app)).toEqual([])

    await uploadLog(app, laravelEntries([{ at: minutesAgo(2), message: 'Fresh gamma failed' }]))
    expect(await bodies(name)).toEqual([{ trigger: 'new_error', summary: '1 new issue', items: [{ severity: 'ERROR', title: 'Fresh gamma failed', count: 1 }], more: 0, url: null }])
    const [event, ...rest] = await alertEvents(app)
    expect(rest).toEqual([])
    expect(event).toEqual({
      id: expect.any(Number),
      rule_id: expect.any(Number),
      rule_name: 'Rule',
      channel_id: expect.any(Number),
      trigger_type: 'new_error',
      status: 'sent',
      summary: '1 new issue',
      detail: 'HTTP 200',
      attempts: 1,
      created_at: expect.any(String),
      sent_at: expect.any(String),
    })
  })

  it('filters new errors by severity and min_count, and consolidates a scan into one message per rule', async () => {
    const app = await alertingApp('alert-new-error')
    const critical = await webhookRule(app, { trigger_type: 'new_error', severities: ['CRITICAL'], cooldown_minutes: 0 })
    const hook = hookUrl('slack-new')
    const slack = await createChannel(app, { name: 'Slack', type: 'slack', url: hook.url })
    await createRule(app, { name: 'All new', channel_id: slack.id, trigger_type: 'new_error', cooldown_minutes: 0 })
    const repeated = await webhookRule(app, { trigger_type: 'new_error', min_count: 3, cooldown_minutes: 0 })

    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta']
    await uploadLog(
      app,
      laravelEntries([
        ...words.map((word, i) => ({ at: minutesAgo(30 - i), message: `Queue ${word} stalled` })),
        { at: minutesAgo(20), level: 'CRITICAL', message: 'Disk full on primary' },
        { at: minutesAgo(19), level: 'CRITICAL', message: 'Disk full on primary' },
        { at: minutesAgo(18), level: 'CRITICAL', message: 'Disk full on primary' },
      ]),
    )
    expect(await bodies(critical.name)).toEqual([{ trigger: 'new_error', summary: '1 new issue', items: [{ severity: 'CRITICAL', title: 'Disk full on primary', count: 3 }], more: 0, url: null }])
    expect(await bodies(repeated.name)).toEqual([{ trigger: 'new_error', summary: '1 new issue', items: [{ severity: 'CRITICAL', title: 'Disk full on primary', count: 3 }], more: 0, url: null }])
    const [message, ...more] = await received(hook.name)
    expect(more).toEqual([])
    expect(JSON.parse(message!.body)).toEqual({
      text: [
        '🚨 *New error* — 7 new issues',
        '• [ERROR] Queue alpha stalled (1×)',
        '• [ERROR] Queue beta stalled (1×)',
        '• [ERROR] Queue gamma stalled (1×)',
        '• [ERROR] Queue delta stalled (1×)',
        '• [ERROR] Queue epsilon stalled (1×)',
        '…and 2 more',
      ].join('\n'),
    })
    expect((await alertEvents(app)).map((event) => [event.rule_name, event.summary, event.status])).toEqual([
      ['Rule', '1 new issue', 'sent'],
      ['All new', '7 new issues', 'sent'],
      ['Rule', '1 new issue', 'sent'],
    ])
    expect((await alertEvents(app, { limit: '1' })).length).toBe(1)
    expect((await alertEvents(app, { limit: '0' })).length).toBe(1)
    expect((await alertEvents(app, { limit: 'lots' })).length).toBe(3)
  })

  it('alerts on issues that reoccur after being fixed', async () => {
    const app = await alertingApp('alert-reoccur')
    const { name } = await webhookRule(app, { trigger_type: 'reoccurrence', cooldown_minutes: 0 })
    await uploadLog(app, laravelEntries([{ at: minutesAgo(10), message: 'Cache stampede detected' }]))
    expect(await received(name)).toEqual([])
    const issue = (await expectStatus(alertCall('GET', 'issues', app), 200)).data[0]
    await expectStatus(alertCall('POST', 'issue-status', app, { body: { id: issue.id, status: 'fixed' } }), 200)
    await uploadLog(app, laravelEntries([{ at: minutesAgo(5), message: 'Cache stampede detected' }]))
    expect(await bodies(name)).toEqual([{ trigger: 'reoccurrence', summary: '1 issue reoccurred', items: [{ severity: 'ERROR', title: 'Cache stampede detected', count: 2 }], more: 0, url: null }])
    // It is `reoccurred` now: occurring again is no new reoccurrence.
    await uploadLog(app, laravelEntries([{ at: minutesAgo(4), message: 'Cache stampede detected' }]))
    expect((await received(name)).length).toBe(1)
  })

  it('detects spikes against the preceding 23 hours, at most once per rule and hour', async () => {
    const app = await alertingApp('alert-spike')
    const { name } = await webhookRule(app, { trigger_type: 'spike', spike_factor: 3, cooldown_minutes: 0 })
    const entries = [
      // 6 in the last hour against 23 over the day before (baseline 1 an hour): 6 ≥ 3 × 1.
      ...Array.from({ length: 6 }, (_, i) => ({ at: minutesAgo(10 + i), message: 'Checkout spike failure' })),
      ...Array.from({ length: 23 }, (_, i) => ({ at: minutesAgo(90 + i * 55), message: 'Checkout spike failure' })),
      // 2 against a baseline of 2 an hour: no spike.
      ...Array.from({ length: 2 }, (_, i) => ({ at: minutesAgo(20 + i), message: 'Steady noise failure' })),
      ...Array.from({ length: 46 }, (_, i) => ({ at: minutesAgo(70 + i * 28), message: 'Steady noise failure' })),
      // No baseline: 2 in the hour is a spike, 1 is not.
      { at: minutesAgo(30), message: 'Brand new burst failure' },
      { at: minutesAgo(31), message: 'Brand new burst failure' },
      { at: minutesAgo(40), message: 'Single blip failure' },
      // Older than a day: not counted at all.
      { at: minutesAgo(60 * 30), message: 'Ancient failure' },
    ].sort((a, b) => a.at.getTime() - b.at.getTime())
    await uploadLog(app, laravelEntries(entries))
    expect(await bodies(name)).toEqual([
      {
        trigger: 'spike',
        summary: '2 issues spiking',
        items: [
          { severity: 'ERROR', title: 'Checkout spike failure', count: 29 },
          { severity: 'ERROR', title: 'Brand new burst failure', count: 2 },
        ],
        more: 0,
        url: null,
      },
    ])
    await uploadLog(app, laravelEntries([{ at: minutesAgo(1), message: 'Brand new burst failure' }]))
    expect((await received(name)).length).toBe(1)
  })

  it('keeps to the cooldown, and sends nothing for disabled rules, disabled channels or with the plugin off', async () => {
    const app = await alertingApp('alert-cooldown')
    const cooling = await webhookRule(app, { trigger_type: 'new_error', cooldown_minutes: 60 })
    const eager = await webhookRule(app, { trigger_type: 'new_error', cooldown_minutes: 0 })
    const disabledRule = await webhookRule(app, { trigger_type: 'new_error', cooldown_minutes: 0, enabled: false })
    const disabledChannel = await webhookRule(app, { trigger_type: 'new_error', cooldown_minutes: 0 })
    await expectStatus(alertCall('PATCH', 'alert-channels', app, { body: { id: disabledChannel.channel.id, enabled: false } }), 200)

    await uploadLog(app, laravelEntries([{ at: minutesAgo(3), message: 'First mail bounce' }]))
    await uploadLog(app, laravelEntries([{ at: minutesAgo(2), message: 'Second mail bounce' }]))
    expect((await bodies(cooling.name)).map((body) => body.items[0].title)).toEqual(['First mail bounce'])
    expect((await bodies(eager.name)).map((body) => body.items[0].title)).toEqual(['First mail bounce', 'Second mail bounce'])
    expect(await received(disabledRule.name)).toEqual([])
    expect(await received(disabledChannel.name)).toEqual([])
    const rules = (await expectStatus(alertCall('GET', 'alert-rules', app), 200)).data
    expect(rules.find((rule: { id: number }) => rule.id === cooling.rule.id).last_triggered_at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/))

    await alertCall('POST', 'plugins', app, { body: { id: 'alerts', enabled: false } })
    await uploadLog(app, laravelEntries([{ at: minutesAgo(1), message: 'Third mail bounce' }]))
    expect((await received(eager.name)).length).toBe(2)
  })

  it('records a failing receiver as failed after retrying, without starting the cooldown; never leaks the URL', async () => {
    const app = await alertingApp('alert-failing')
    const { name, rule } = await webhookRule(app, { trigger_type: 'new_error' }, 'status=503&token=s3cr3t-t0ken')
    await uploadLog(app, laravelEntries([{ at: minutesAgo(2), message: 'Webhook target down' }]))
    expect((await received(name)).length).toBe(3)
    const events = await alertCall('GET', 'alert-events', app)
    expect(events.body.data).toEqual([expect.objectContaining({ rule_id: rule.id, status: 'failed', detail: 'HTTP 503 (3 attempts)', attempts: 3, sent_at: null })])
    const rules = await alertCall('GET', 'alert-rules', app)
    expect(rules.body.data[0].last_triggered_at).toBeNull()
    for (const response of [events, rules, await alertCall('GET', 'alert-channels', app)]) expect(response.text).not.toContain('s3cr3t-t0ken')
  })

  it('sends each alert once when scans run at once, and nothing when a scan runs again', async () => {
    const app = await alertingApp('alert-once')
    const { name } = await webhookRule(app, { trigger_type: 'new_error', cooldown_minutes: 0 })
    await alertCall('POST', 'plugins', app, { body: { id: 'alerts', enabled: false } })
    await uploadLog(app, laravelEntries([{ at: minutesAgo(2), message: 'Raced alpha' }, { at: minutesAgo(1), message: 'Raced beta' }]))
    expect(await received(name)).toEqual([])

    const deps = createDeps({ ...env, ...ALERT_ENV } as unknown as CloudflareEnv, createExecutionContext(), createApp({ runtime: cloudflareRuntime }))
    const scope = await openScope(deps, app)
    const scan = () => scanAlerts({ scope, secrets: deps.secrets, settings: deps.config.section(ALERTS_SECTION), serviceUrl: null, now: new Date() })
    const outcomes = await Promise.all([scan(), scan(), scan()])
    expect(outcomes.reduce((sum, outcome) => sum + outcome.sent, 0)).toBe(1)
    expect(await bodies(name)).toEqual([expect.objectContaining({ summary: '2 new issues' })])
    expect(await scan()).toEqual({ scanned: true, sent: 0, failed: 0 })
    expect((await received(name)).length).toBe(1)
    // A damaged cursor starts again at the newest ids: nothing replayed, later issues alert again.
    const db = await appDatabase(app)
    await db.db.execute({ sql: `UPDATE ${db.t.settings} SET value = 'garbage' WHERE ${db.db.dialect.quote('key')} = 'alerts.cursor'` })
    expect(await scan()).toEqual({ scanned: false, sent: 0, failed: 0 })
    expect(await scan()).toEqual({ scanned: true, sent: 0, failed: 0 })
    await alertCall('POST', 'plugins', app, { body: { id: 'alerts', enabled: true } })
    expect((await alertEvents(app)).map((event) => event.status)).toEqual(['sent'])
  })

  it('has the cron trigger send alerts a scan claimed but could not deliver, once, and fail those whose channel is gone', async () => {
    const app = await alertingApp('alert-stalled')
    const { name, rule, channel } = await webhookRule(app, { trigger_type: 'new_error' })
    const db = await appDatabase(app)
    const payload = { trigger: 'new_error', summary: '1 new issue', items: [{ severity: 'ERROR', title: 'Stalled one', count: 1 }], more: 0, url: null }
    const old = new Date(Date.now() - 10 * 60_000).toISOString().slice(0, 19).replace('T', ' ')
    const fresh = new Date().toISOString().slice(0, 19).replace('T', ' ')
    const insert = `INSERT INTO ${db.t.alertEvents} (rule_id, channel_id, trigger_type, scan_key, claim, status, summary, payload, attempts, created_at) VALUES (?, ?, 'new_error', ?, 'lost-scan', 'pending', '1 new issue', ?, 0, ?)`
    await db.db.batch([
      { sql: insert, args: [rule.id, channel.id, `${rule.id}:new_error:stalled`, JSON.stringify(payload), old] },
      { sql: insert, args: [rule.id, null, `${rule.id}:new_error:orphan`, JSON.stringify(payload), old] },
      // Claimed a moment ago: its scan may still be sending it.
      { sql: insert, args: [rule.id, channel.id, `${rule.id}:new_error:recent`, JSON.stringify(payload), fresh] },
    ])
    const deps = createDeps({ ...env, ...ALERT_ENV } as unknown as CloudflareEnv, createExecutionContext(), createApp({ runtime: cloudflareRuntime }))
    const scope = await openScope(deps, app)
    await Promise.all([maintainApplication(deps, scope), maintainApplication(deps, scope)])
    expect(await bodies(name)).toEqual([payload])
    const events = Object.fromEntries((await alertEvents(app)).map((event) => [event.status + ':' + (event.detail ?? ''), event.rule_id]))
    expect(events).toEqual({ 'sent:HTTP 200': rule.id, 'failed:the channel was deleted before the alert was sent': rule.id, 'pending:': rule.id })
    await maintainApplication(deps, scope)
    expect((await received(name)).length).toBe(1)
  })

  it('leaves an alert another maintenance run reclaimed a moment ago to that run, and takes one reclaimed long ago', async () => {
    const app = await alertingApp('alert-reclaimed')
    const { name, rule, channel } = await webhookRule(app, { trigger_type: 'new_error' })
    const db = await appDatabase(app)
    const payload = { trigger: 'new_error', summary: '1 new issue', items: [{ severity: 'ERROR', title: 'Reclaimed one', count: 1 }], more: 0, url: null }
    const stamp = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString().slice(0, 19).replace('T', ' ')
    const insert = `INSERT INTO ${db.t.alertEvents} (rule_id, channel_id, trigger_type, scan_key, claim, status, summary, payload, attempts, created_at) VALUES (?, ?, 'new_error', ?, ?, 'pending', '1 new issue', ?, 0, ?)`
    // Both created 30 minutes ago; one reclaimed by a run a minute ago (still sending), one 20 minutes ago (cut off).
    await db.db.batch([
      { sql: insert, args: [rule.id, channel.id, `${rule.id}:new_error:busy`, `resent:${stamp(1)}:0123456789abcdef0123456789abcdef`, JSON.stringify(payload), stamp(30)] },
      { sql: insert, args: [rule.id, channel.id, `${rule.id}:new_error:lost`, `resent:${stamp(20)}:0123456789abcdef0123456789abcdef`, JSON.stringify(payload), stamp(30)] },
    ])
    const deps = createDeps({ ...env, ...ALERT_ENV } as unknown as CloudflareEnv, createExecutionContext(), createApp({ runtime: cloudflareRuntime }))
    await maintainApplication(deps, await openScope(deps, app))
    expect(await bodies(name)).toEqual([payload])
    const status = await db.rows<{ scan_key: string; status: string }>(`SELECT scan_key, status FROM ${db.t.alertEvents} ORDER BY scan_key`)
    expect(status.map((row) => `${row.scan_key.split(':').at(-1)}:${row.status}`)).toEqual(['busy:pending', 'lost:sent'])
  })
})

describe('alerting after HTTP ingest', () => {
  it('alerts on a new issue an application reported over HTTP (the digest runs the scan after its batch)', async () => {
    const app = await alertingApp('alert-http')
    await expectStatus(alertCall('POST', 'plugins', app, { body: { id: 'http_ingest', enabled: true } }), 200)
    const { key } = await expectStatus(alertCall('GET', 'ingest-settings', app), 200)
    const { name } = await webhookRule(app, { trigger_type: 'new_error', cooldown_minutes: 0 })
    const accepted = await alertCall('POST', 'ingest', app, { body: { message: 'Stripe webhook signature invalid', severity: 'CRITICAL' }, headers: { 'X-Loupe-Ingest-Key': key } })
    expect(accepted.status, accepted.text).toBe(202)
    const deadline = Date.now() + 10_000
    while ((await received(name)).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await bodies(name)).toEqual([{ trigger: 'new_error', summary: '1 new issue', items: [{ severity: 'CRITICAL', title: 'Stripe webhook signature invalid', count: 1 }], more: 0, url: null }])
  })
})

describe('alert-preview', () => {
  it('shows what a rule would have sent over the last 24 hours, without sending or storing anything', async () => {
    const app = await alertingApp('alert-preview')
    const { name } = await webhookRule(app, { trigger_type: 'reoccurrence' })
    await uploadLog(
      app,
      laravelEntries([
        { at: minutesAgo(50), message: 'Preview alpha broke' },
        { at: minutesAgo(40), level: 'CRITICAL', message: 'Preview beta broke' },
        { at: minutesAgo(30), level: 'CRITICAL', message: 'Preview beta broke' },
        { at: minutesAgo(20), level: 'CRITICAL', message: 'Preview beta broke' },
      ]),
    )
    const preview = (body: Record<string, unknown>) => expectStatus(alertCall('POST', 'alert-preview', app, { body }), 200)
    expect(await preview({ trigger_type: 'new_error' })).toEqual({
      trigger: 'new_error',
      summary: '2 new issues',
      items: [
        { severity: 'ERROR', title: 'Preview alpha broke', count: 1 },
        { severity: 'CRITICAL', title: 'Preview beta broke', count: 3 },
      ],
      more: 0,
      url: null,
      count: 2,
    })
    expect(await preview({ trigger_type: 'new_error', severities: ['CRITICAL'], min_count: 4 })).toMatchObject({ summary: '0 new issues', items: [], count: 0 })
    expect(await preview({ trigger_type: 'spike' })).toMatchObject({ summary: '1 issue spiking', items: [{ title: 'Preview beta broke', count: 3 }], count: 1 })
    expect(await preview({ trigger_type: 'reoccurrence' })).toMatchObject({ summary: '0 issues reoccurred', count: 0 })
    expect(await alertCall('POST', 'alert-preview', app, { body: {} })).toMatchObject({ status: 422, body: { error: 'Trigger must be new_error, reoccurrence, or spike.' } })
    expect(await received(name)).toEqual([])
    expect(await alertEvents(app)).toEqual([])
  })
})
