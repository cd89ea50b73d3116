/**
 * The Access analytics page in a real headless Chromium against `wrangler dev` (issue 14): the plugin-off
 * state and its link to Plugins, the Analytics navigation entry once the plugin is on, the empty state, then an
 * imported access log shown whole — the 2xx/3xx lines the default allow-list never stores included — and the
 * window switch. Screenshots land in test-results/.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHOTS, startDashboardSession, type DashboardSession } from './helpers/session.ts'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10)

function line(ago: number, request: string, status: number, agent: string): string {
  const [year, month, date] = day(ago).split('-')
  return `198.51.100.4 - - [${date}/${MONTHS[Number(month) - 1]}/${year}:00:30:00 +0000] "${request} HTTP/1.1" ${status} 512 "-" "${agent}"`
}

/** 10 lines in the last week (6 of them 2xx/3xx, never stored as issues by default) and 2 twenty days ago. */
const ACCESS_LOG = `${[
  ...Array(4).fill(line(0, 'GET /shop', 200, 'Mozilla/5.0 (X11; Linux x86_64)')),
  line(0, 'GET /checkout?step=2', 502, 'Mozilla/5.0 (X11; Linux x86_64)'),
  line(1, 'POST /checkout', 500, 'curl/8.5.0'),
  line(1, 'GET /shop', 301, 'curl/8.5.0'),
  line(2, 'GET /wp-login.php', 404, 'Go-http-client/1.1'),
  line(2, 'GET /wp-login.php', 404, 'Go-http-client/1.1'),
  line(2, 'HEAD /shop', 200, 'Go-http-client/1.1'),
  ...Array(2).fill(line(20, 'GET /old', 200, 'curl/8.5.0')),
].join('\n')}\n`

let session: DashboardSession
let worker: DashboardSession['worker']
let page: Page
let problems: string[]
let api: DashboardSession['api']

const texts = (testId: string) => page.getByTestId(testId).locator('li').allInnerTexts()

beforeAll(async () => {
  session = await startDashboardSession('access-dashboard', {}, { viewport: { width: 1280, height: 1000 }, colorScheme: 'light' })
  ;({ worker, page, problems, api } = session)
}, 120_000)

afterAll(async () => {
  await session?.close()
})

describe('Access analytics page', { timeout: 60_000 }, () => {
  it('says the plugin is off, has no Analytics entry elsewhere, and links to Plugins', async () => {
    await page.goto(`${worker.url}/?view=analytics`)
    await expect.poll(() => page.getByText('Access-log analytics is off for this application.').isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Switch it on in Plugins' }).click()
    await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('plugins')
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).innerText()).not.toContain('Analytics')
    expect(problems).toEqual(['console.error: Failed to load resource: the server responded with a status of 404 (Not Found)'])
    problems.length = 0
  })

  it('shows the Analytics entry once switched on in Plugins, and the empty state behind it', async () => {
    await page.locator('[data-plugin="access_analytics"]').getByRole('switch').click()
    await expect.poll(async () => (await api('plugins')).data.find((plugin: { id: string }) => plugin.id === 'access_analytics').enabled).toBe(true)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click()
    await expect.poll(() => page.getByText('No access-log lines in the last 7 days.').isVisible()).toBe(true)
    expect(new URL(page.url()).searchParams.get('view')).toBe('analytics')
  })

  it('shows every imported access line: cards, the per-day chart, classes, paths, methods, agents; and a wider window', async () => {
    const imported = await api('import-incoming', { query: { file: 'edge/access.log' }, raw: ACCESS_LOG })
    expect(imported.file_results[0]).toMatchObject({ format: 'nginx_access', read: 12, stored: 4 })
    await page.reload()
    await expect.poll(() => page.getByTestId('access-total').innerText()).toContain('10')
    expect(await page.getByTestId('access-errors').innerText()).toContain('4')
    expect(await page.getByTestId('access-error-rate').innerText()).toContain('40.00 %')
    expect(await page.getByTestId('access-unique-paths').innerText()).toContain('3')
    expect(await page.getByTestId('access-days').locator('tbody tr').allInnerTexts()).toEqual([`${day(2)}\t3\t2`, `${day(1)}\t2\t1`, `${day(0)}\t5\t1`])
    // uPlot drew the chart.
    expect(await page.getByTestId('access-day-chart').locator('canvas').count()).toBe(1)
    expect(await texts('access-classes')).toEqual(['2xx\n5', '3xx\n1', '4xx\n2', '5xx\n2'])
    expect(await texts('access-top-paths')).toEqual(['/shop\n6', '/checkout\n2 · 2 failed', '/wp-login.php\n2 · 2 failed'])
    expect(await texts('access-error-paths')).toEqual(['/checkout\n2', '/wp-login.php\n2'])
    expect(await texts('access-methods')).toEqual(['GET\n8', 'HEAD\n1', 'POST\n1'])
    expect(await texts('access-agents')).toEqual(['Mozilla/5.0 (X11; Linux x86_64)\n5', 'Go-http-client/1.1\n3', 'curl/8.5.0\n2'])
    await page.screenshot({ path: join(SHOTS, 'access-analytics.png'), fullPage: true })

    await page.getByRole('button', { name: '30 days' }).click()
    await expect.poll(() => page.getByTestId('access-total').innerText()).toContain('12')
    expect(await page.getByTestId('access-unique-paths').innerText()).toContain('4')
    expect(await page.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe('true')
    expect(problems).toEqual([])
  })
})
