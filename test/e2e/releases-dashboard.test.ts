/**
 * Release tracking in a real headless Chromium against `wrangler dev` (issue 14): deploy markers on the
 * overview's trend chart, Settings → Releases (releases with new and regressed issues, "Record deploy" with its
 * inline error, the code-host template, maps), and the inspector's releases with "View source".
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHOTS, startDashboardSession, type DashboardSession } from './helpers/session.ts'

let session: DashboardSession
let worker: DashboardSession['worker']
let page: Page
let problems: string[]
let api: DashboardSession['api']
let issueId: number

const today = new Date().toISOString().slice(0, 10)
const event = (release: string, at: string) => ({ message: 'Basket total went negative', exception_class: 'RangeError', stack: ['    at total (/app/src/basket.ts:27:9)'], release, occurred_at: at })

async function waitForIssue(count: number): Promise<{ id: number; status: string }> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const list = await api<{ data: { id: number; count: number; status: string }[] }>('issues', { query: { q: 'Basket total' } })
    if (list.data[0]?.count === count) return list.data[0]
    if (Date.now() > deadline) throw new Error(`issue never reached count ${count}: ${JSON.stringify(list.data)}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

beforeAll(async () => {
  session = await startDashboardSession('releases-dashboard', { SERVICE_SECRET: 'releases-dashboard-secret' }, { viewport: { width: 1280, height: 900 } })
  ;({ worker, page, problems, api } = session)
  for (const id of ['http_ingest', 'releases']) await api('plugins', { body: { id, enabled: true } })
  const { key } = await api<{ key: string }>('ingest-settings')
  await api('ingest', { query: { key }, body: { events: [event('shop@1.0.0', `${today}T08:00:00Z`)] } })
  issueId = (await waitForIssue(1)).id
  await api('issue-status', { body: { id: issueId, status: 'fixed' } })
  await api('ingest', { query: { key }, body: { events: [event('shop@2.0.0', `${today}T09:00:00Z`)] } })
  expect((await waitForIssue(2)).status).toBe('reoccurred')
  await api('deploys', { body: { version: 'shop@2.0.0', ref: 'a1b2c3' } })
  await api('source-maps', { body: { release: 'shop@2.0.0', file: 'app-3f9a.js', map: { version: 3, sources: ['src/basket.ts'], names: [], mappings: 'AAAA' } } })
  await api('release-settings', { method: 'PUT', body: { repo_url_template: 'https://github.com/acme/shop/blob/{ref}/{path}#L{line}', default_ref: 'a1b2c3' } })
}, 120_000)

afterAll(async () => {
  await session?.close()
})

describe('release tracking in the dashboard', { timeout: 60_000 }, () => {
  it('marks deploys on the overview trend chart', async () => {
    await page.goto(`${worker.url}/`)
    // Issue 17: the overview is a one-line strip; its heading's button unfolds the trend chart.
    await page.getByRole('heading', { name: 'Overview' }).getByRole('button').click()
    const markers = page.getByTestId('deploy-markers')
    await markers.waitFor()
    expect(await markers.locator('li').allTextContents()).toEqual([`▍ shop@2.0.0 (production) · ${today}`])
    await page.screenshot({ path: join(SHOTS, 'releases-01-trend-markers.png') })
    expect(problems).toEqual([])
  })

  it('lists releases with their new and regressed issues, records a deploy and shows a refused one inline', async () => {
    await page.goto(`${worker.url}/?view=settings&tab=releases`)
    const list = page.getByTestId('release-list')
    await list.waitFor()
    const cells = async (version: string) => list.locator(`tr[data-release="${version}"] td`).allTextContents()
    expect((await cells('shop@2.0.0')).slice(1, 5)).toEqual(['1', '0', '1', '1'])
    expect((await cells('shop@1.0.0')).slice(1, 5)).toEqual(['1', '1', '0', '0'])
    const deploys = page.getByTestId('deploys')
    await page.getByLabel('Version').fill('shop@2.1.0')
    await page.getByLabel('Ref (optional)').fill('d4e5f6')
    await page.getByRole('button', { name: 'Record deploy' }).click()
    await expect.poll(() => deploys.locator('[data-deploy="shop@2.1.0"]').count()).toBe(1)
    expect(await deploys.locator('[data-deploy="shop@2.1.0"]').textContent()).toContain('d4e5f6')
    await page.getByLabel('Version').fill('shop@2.1.0')
    await page.getByRole('button', { name: 'Record deploy' }).click()
    await expect.poll(() => page.locator('#deploy-version-error').textContent()).toBe('Release shop@2.1.0 already exists for production.')
    expect(await page.getByLabel('Source URL template').inputValue()).toBe('https://github.com/acme/shop/blob/{ref}/{path}#L{line}')
    expect((await cells('shop@2.0.0'))[4]).toBe('1')
    const map = page.getByTestId('source-maps').locator('[data-map="app-3f9a.js"]')
    expect(await map.textContent()).toContain('shop@2.0.0')
    await map.getByRole('button', { name: 'Delete…' }).click()
    await map.getByRole('button', { name: 'Delete map' }).click()
    await expect.poll(async () => (await api<{ data: unknown[] }>('source-maps')).data).toEqual([])
    await expect.poll(() => page.getByTestId('source-maps').textContent()).toContain('No source map uploaded.')
    await page.screenshot({ path: join(SHOTS, 'releases-02-settings.png'), fullPage: true })
    // The refused deploy (422) was provoked on purpose; watchProblems lets it through.
    expect(problems).toEqual([])
  })

  it("shows the issue's releases and links its frame to the code host", async () => {
    await page.goto(`${worker.url}/?issue=${issueId}`)
    const section = page.getByTestId('issue-releases')
    await section.waitFor()
    const text = await section.textContent()
    expect(text).toContain('First seen inshop@1.0.0')
    expect(text).toContain('Regressed inshop@2.0.0')
    expect(await section.locator('.release-occurrences li strong').allTextContents()).toEqual(['shop@2.0.0', 'shop@1.0.0'])
    expect(await section.getByRole('link', { name: 'View source' }).getAttribute('href')).toBe('https://github.com/acme/shop/blob/a1b2c3/app/src/basket.ts#L27')
    await page.screenshot({ path: join(SHOTS, 'releases-03-inspector.png') })
    expect(problems).toEqual([])
  })
})
