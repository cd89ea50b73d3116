/**
 * Settings → Alerts in a real headless Chromium against `wrangler dev` (issue 13): add a channel, send a test
 * that a real loopback receiver gets, add a rule, see an import's alert in the delivery log; an inline error
 * for a refused URL; the plugin-off state. Screenshots land in test-results/.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebhookReceiver, type WebhookReceiver } from '../../tools/servers/webhook-receiver.ts'
import { SHOTS, startDashboardSession, type DashboardSession } from './helpers/session.ts'

let session: DashboardSession
let worker: DashboardSession['worker']
let receiver: WebhookReceiver
let page: Page
let problems: string[]
let api: DashboardSession['api']

const received = async (name: string) => (await (await fetch(`${receiver.url}/captured/${name}`)).json()) as { body: string }[]

beforeAll(async () => {
  receiver = await startWebhookReceiver()
  const config = { alerts: { allow_local_targets: true, timeout_ms: 2000, retry_backoff_ms: 10 } }
  session = await startDashboardSession('alerts-dashboard', { SERVICE_SECRET: 'alerts-dashboard-secret', SERVICE_CONFIG: JSON.stringify(config) }, { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' })
  ;({ worker, page, problems, api } = session)
}, 120_000)

afterAll(async () => {
  await session?.close()
  await receiver?.close()
})

describe('Settings → Alerts', { timeout: 60_000 }, () => {
  it('says alerting is off, and links to Plugins', async () => {
    await page.goto(`${worker.url}/?view=settings&tab=alerts`)
    await expect.poll(() => page.getByText('Alerting is off for this application.').isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Switch it on in Plugins' }).click()
    await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('plugins')
    // The plugin-off answer (404) was asked for; anything else is a problem.
    expect(problems).toEqual(['console.error: Failed to load resource: the server responded with a status of 404 (Not Found)'])
    problems.length = 0
  })

  it('adds a channel, sends a test the receiver gets, and shows a refused URL inline', async () => {
    await api('plugins', { body: { id: 'alerts', enabled: true } })
    await page.goto(`${worker.url}/?view=settings&tab=alerts`)
    const channels = page.getByTestId('alert-channels')
    await channels.getByLabel('Name').fill('Ops room')
    await channels.getByLabel('Type').selectOption('slack')
    await channels.getByLabel('Webhook URL').fill(`${receiver.url}/hooks/ops-room`)
    await channels.getByRole('button', { name: 'Add channel' }).click()
    const item = channels.locator('[data-channel="Ops room"]')
    await expect.poll(() => item.textContent()).toContain(new URL(receiver.url).host)

    await item.getByRole('button', { name: 'Send test' }).click()
    await expect.poll(() => item.getByRole('status').textContent()).toBe('Test delivered: HTTP 200')
    expect((await received('ops-room')).map((request) => JSON.parse(request.body))).toEqual([{ text: '✅ *Test* — Alerting is connected.\n• [INFO] This is a test notification. (1×)' }])

    await channels.getByRole('button', { name: 'Add channel' }).click()
    await channels.getByLabel('Name').fill('Bad')
    await channels.getByLabel('Webhook URL').fill('ftp://files.example.com/hook')
    await channels.getByRole('button', { name: 'Add channel' }).click()
    await expect.poll(() => channels.getByRole('alert').textContent()).toBe('Channel URL must be a valid https:// URL.')
    await channels.getByRole('button', { name: 'Cancel' }).click()
    expect((await api('alert-channels')).data.map((channel: { name: string }) => channel.name)).toEqual(['Ops room'])
  })

  it('adds a rule from the form and shows what it sent in the delivery log', async () => {
    const rules = page.getByTestId('alert-rules')
    await rules.getByRole('button', { name: 'Add rule' }).click()
    await rules.getByLabel('Name').fill('Critical errors')
    await rules.getByLabel('When').selectOption('new_error')
    await rules.getByRole('button', { name: 'CRITICAL', exact: true }).click()
    await rules.getByLabel('Cooldown (minutes)').fill('0')
    await rules.getByRole('button', { name: 'Preview last 24 h' }).click()
    await expect.poll(() => rules.getByTestId('alert-preview').textContent()).toBe('Last 24 h: nothing would have been sent')
    await rules.getByRole('button', { name: 'Add rule' }).click()
    await expect.poll(() => rules.locator('[data-rule="Critical errors"]').textContent()).toContain('New issue · CRITICAL · no cooldown')
    expect((await api('alert-rules')).data).toEqual([expect.objectContaining({ name: 'Critical errors', trigger_type: 'new_error', severities: ['CRITICAL'], cooldown_minutes: 0, channel_name: 'Ops room' })])

    const at = new Date().toISOString().slice(0, 19).replace('T', ' ')
    await api('import-incoming', { query: { file: 'billing/laravel.log' }, raw: `[${at}] production.CRITICAL: Ledger out of balance\n[${at}] production.ERROR: Minor glitch\n` })
    await expect.poll(async () => (await received('ops-room')).length, { timeout: 15_000 }).toBe(2)
    expect(JSON.parse((await received('ops-room'))[1]!.body)).toEqual({ text: '🚨 *New error* — 1 new issue\n• [CRITICAL] Ledger out of balance (1×)' })

    await page.reload()
    await rules.getByRole('button', { name: 'Edit' }).click()
    await rules.getByRole('button', { name: 'Preview last 24 h' }).click()
    await expect.poll(() => rules.getByTestId('alert-preview').textContent()).toBe('Last 24 h: 1 new issue[CRITICAL] Ledger out of balance (1×)')
    await rules.getByRole('button', { name: 'Cancel' }).click()
    const log = page.getByTestId('alert-events')
    await expect.poll(() => log.locator('tbody tr').count()).toBe(1)
    expect(await log.locator('tbody tr').first().textContent()).toMatch(/Critical errors.*1 new issue.*sent.*HTTP 200/)
    await page.screenshot({ path: join(SHOTS, 'alerts-settings.png'), fullPage: true })
    expect(problems).toEqual([])
  })
})
