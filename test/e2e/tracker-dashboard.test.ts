/**
 * Settings → Tracker and the inspector's tracker section in a real headless Chromium against `wrangler dev`
 * (issue 16), with tools/servers/linear-server.ts as Linear: save credentials and filters (an inline error
 * first), test the connection, sync, then create a Linear issue from a Loupe issue and see its link and state.
 * Screenshots land in test-results/.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLinearServer, type LinearServer } from '../../tools/servers/linear-server.ts'
import { SHOTS, startDashboardSession, type DashboardSession } from './helpers/session.ts'

let session: DashboardSession
let worker: DashboardSession['worker']
let linear: LinearServer
let page: Page
let problems: string[]
let api: DashboardSession['api']
let key: string

async function control(path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${linear.url}/control/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) })
  return response.json()
}

beforeAll(async () => {
  linear = await startLinearServer()
  ;({ api_key: key } = await control('workspaces', { issues: [{ title: 'Checkout fails', priority: 1, state: 'started', labels: [{ name: 'loupe', color: '#eb5757' }] }] }))
  const config = { tracker: { linear_url: `${linear.url}/graphql`, allow_local_targets: true, timeout_ms: 5000 } }
  session = await startDashboardSession('tracker-dashboard', { SERVICE_SECRET: 'tracker-dashboard-secret', SERVICE_CONFIG: JSON.stringify(config) }, { viewport: { width: 1280, height: 900 } })
  ;({ worker, page, problems, api } = session)
}, 120_000)

afterAll(async () => {
  await session?.close()
  await linear?.close()
})

describe('Settings → Tracker', { timeout: 60_000 }, () => {
  it('saves credentials and filters, tests the connection and syncs', async () => {
    await page.goto(`${worker.url}/?view=settings&tab=tracker`)
    const form = page.getByTestId('tracker-settings')
    await form.getByLabel('Integration enabled').check()
    await form.getByRole('button', { name: 'Save tracker settings' }).click()
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Add a Linear API key (or set TRACKER_API_KEY) before enabling the integration.')

    await form.getByLabel('Linear API key').fill(key)
    await form.getByLabel('Team key').fill('eng')
    await form.getByLabel('Labels').fill('loupe')
    await form.getByLabel('Write status changes back to Linear').check()
    await form.getByRole('button', { name: 'Save tracker settings' }).click()
    const actions = page.getByTestId('tracker-actions')
    await expect.poll(() => actions.textContent()).toContain('API key stored, encrypted')
    expect(await form.getByLabel('Linear API key').inputValue()).toBe('')
    expect(await actions.textContent()).toContain(`${worker.url}/?api=tracker-webhook&app=default`)
    expect(await page.content()).not.toContain(key)

    await actions.getByRole('button', { name: 'Test connection' }).click()
    await expect.poll(() => actions.getByRole('status').textContent()).toBe('Connected to Linear as Test Viewer (viewer@example.com).')
    await actions.getByRole('button', { name: 'Sync now' }).click()
    await expect.poll(() => actions.getByRole('status').textContent()).toBe('Synced 1 issue: 1 new, 0 updated, 1 new tags.')
    await page.screenshot({ path: join(SHOTS, 'tracker-settings.png'), fullPage: true })
    expect(problems).toEqual([])
  })

  it('shows a mirrored issue\'s link, and creates a Linear issue from a Loupe issue in the inspector', async () => {
    const mirrored = (await api('issues', { query: { origin: 'linear' } })).data[0]
    await page.goto(`${worker.url}/?issue=${mirrored.id}`)
    const inspector = page.getByTestId('inspector')
    await expect.poll(() => inspector.getByTestId('tracker-link').textContent()).toBe('ENG-1In Progress mirrored from Linear')

    const created = await api('issues', { body: { title: 'Queue stalls', severity: 'ERROR' } })
    await page.goto(`${worker.url}/?issue=${created.data.id}`)
    await inspector.getByRole('button', { name: 'Create Linear issue' }).click()
    await expect.poll(() => inspector.getByTestId('tracker-link').textContent()).toBe('ENG-2Todo created from Loupe')
    expect(await inspector.getByRole('link', { name: 'ENG-2' }).getAttribute('href')).toBe('https://linear.app/loupe-test/issue/ENG-2/queue-stalls')
    const remote = (await control(key)).issues.find((issue: { identifier: string }) => issue.identifier === 'ENG-2')
    expect(remote.description).toContain(`Created from Loupe issue [#${created.data.id}](${worker.url}/?app=default&issue=${created.data.id}).`)
    await page.screenshot({ path: join(SHOTS, 'tracker-inspector.png'), fullPage: true })
    expect(problems).toEqual([])
  })
})
