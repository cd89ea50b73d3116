/**
 * Settings → Connectors in a real headless Chromium against `wrangler dev` (issue 15): add an http connector over
 * a file on a real nginx, test the connection, preview the plan, confirm the sync and watch the run finish through
 * the local Queue; a refused URL is shown inline. Screenshots land in test-results/.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startNginx, type NginxServer } from '../../tools/servers/nginx.ts'
import { SHOTS, startDashboardSession, type DashboardSession } from './helpers/session.ts'

let session: DashboardSession
let worker: DashboardSession['worker']
let nginx: NginxServer
let page: Page
let problems: string[]
let api: DashboardSession['api']

const lines = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => `[2026-02-01 10:00:${String(from + i).padStart(2, '0')}] production.ERROR: Checkout ${from + i} failed\n`).join('')

beforeAll(async () => {
  nginx = await startNginx()
  const config = { connectors: { allow_local_targets: true, timeout_ms: 5000 } }
  session = await startDashboardSession('connectors-dashboard', { SERVICE_SECRET: 'connectors-dashboard-secret', SERVICE_CONFIG: JSON.stringify(config) }, { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' })
  ;({ worker, page, problems, api } = session)
}, 120_000)

afterAll(async () => {
  await session?.close()
  await nginx?.close()
})

describe('Settings → Connectors', { timeout: 90_000 }, () => {
  it('adds a connector, tests it, previews the plan, confirms the sync and shows the finished run', async () => {
    const put = await fetch(`${nginx.url}/files/e2e/shop.log`, { method: 'PUT', body: lines(3) })
    expect(put.status).toBe(201)
    await page.goto(`${worker.url}/?view=settings&tab=connectors`)
    const panel = page.getByTestId('connectors')
    await panel.getByLabel('Name').fill('Bad')
    await panel.getByLabel('Log file URLs').fill('ftp://files.example.com/app.log')
    await panel.getByRole('button', { name: 'Add connector' }).click()
    await expect.poll(() => panel.getByRole('alert').textContent()).toContain('An http connector needs 1–100 distinct http(s) log file URLs')

    await panel.getByLabel('Name').fill('Shop web')
    await panel.getByLabel('Log file URLs').fill(`${nginx.url}/files/e2e/shop.log`)
    await panel.getByLabel('Authorization header (optional)').fill('Bearer e2e-token')
    await panel.getByRole('button', { name: 'Add connector' }).click()
    const item = panel.locator('[data-connector="Shop web"]')
    await expect.poll(() => item.textContent()).toContain('headers: Authorization')
    expect(await page.content()).not.toContain('e2e-token')

    await item.getByRole('button', { name: 'Test connection' }).click()
    await expect.poll(() => item.getByRole('status').textContent()).toBe('Connection succeeded; discovered 1 of 1 configured log file URL(s).')

    await item.getByRole('button', { name: 'Preview sync' }).click()
    const plan = item.getByTestId('connector-plan')
    await expect.poll(() => plan.locator('tbody tr').first().textContent()).toContain('new')
    expect(await plan.textContent()).toContain('1 of 1 file(s) to synchronize')
    await page.screenshot({ path: join(SHOTS, 'connectors-preview.png'), fullPage: true })
    await plan.getByRole('button', { name: 'Confirm sync' }).click()

    const runs = page.getByTestId('connector-runs')
    await expect.poll(() => runs.locator('tbody tr').first().textContent(), { timeout: 45_000 }).toContain('3 event(s) indexed')
    expect(await runs.locator('tbody tr').first().textContent()).toContain('success')
    await expect.poll(() => item.textContent()).toContain('last synchronized')
    await page.screenshot({ path: join(SHOTS, 'connectors-settings.png'), fullPage: true })
    const groups = (await api<{ items: { count: number }[] }>('groups')).items
    expect(groups.reduce((sum, group) => sum + group.count, 0)).toBe(3)
    expect(problems.filter((problem) => !problem.includes('status of 422'))).toEqual([])
  })

  // CI once saw the runs table show a finished run while the connector kept its old line: the last connectors
  // answer had been read before the run's final write, and the panel stopped polling once no run was active.
  // Holding the runs list until the run has ended server-side reproduces that order every time.
  it("shows the connector's new last synchronization even when the run ended before the panel saw it running", async () => {
    const before = (await api<{ data: { name: string; last_synced_at: string | null }[] }>('connectors')).data.find((connector) => connector.name === 'Shop web')
    expect(before?.last_synced_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    const item = page.getByTestId('connectors').locator('[data-connector="Shop web"]')
    await expect.poll(() => item.textContent()).toContain(`last synchronized ${before!.last_synced_at} UTC`)
    // Stamps have whole seconds: start once the clock is past the first run's, so the new one's differs.
    while (new Date().toISOString().slice(0, 19).replace('T', ' ') <= before!.last_synced_at!) await new Promise((resolve) => setTimeout(resolve, 100))
    const put = await fetch(`${nginx.url}/files/e2e/shop.log`, { method: 'PUT', body: lines(3) + lines(2, 3) })
    expect(put.status).toBe(204)

    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/[?&]api=connectors-runs(&|$)/, async (route) => {
      await held
      await route.continue()
    })
    type Run = { id: number; status: string; finished_at: string | null }
    const runsNow = async () => (await api<{ data: Run[] }>('connectors-runs')).data
    const earlier = Math.max(...(await runsNow()).map((run) => run.id))
    await item.getByRole('button', { name: 'Preview sync' }).click()
    const plan = item.getByTestId('connector-plan')
    await expect.poll(() => plan.locator('tbody tr').first().textContent()).toContain('append')
    await plan.getByRole('button', { name: 'Confirm sync' }).click()

    // The run this confirmation started (a newer id than any before it), once it has ended server-side.
    const started = async () => (await runsNow()).find((run) => run.id > earlier)
    await expect.poll(async () => (await started())?.status, { timeout: 45_000 }).toBe('success')
    const finished = (await started())!
    expect(finished.finished_at! > before!.last_synced_at!).toBe(true)
    // The two appended lines are stored (3 + 2 events over the connector's issues).
    const stored = async () => (await api<{ items: { count: number }[] }>('groups')).items.reduce((sum, group) => sum + group.count, 0)
    await expect.poll(stored).toBe(5)
    release()
    await expect.poll(() => item.textContent()).toContain(`last synchronized ${finished.finished_at} UTC`)
    await page.unroute(/[?&]api=connectors-runs(&|$)/)
  })
})
