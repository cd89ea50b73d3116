/**
 * Issue 17 item 11: zero serious or critical axe-core violations on every page and dialog, light and dark.
 * One worker (with SERVICE_TOKEN, so the API-key screen is reachable too) seeded with the fixtures — their
 * dates moved into the last days, so the trend, breakdowns and analytics have something to draw — and for
 * each colour scheme every view is opened and scanned by the real axe-core engine in Chromium. Failures are
 * collected per view and asserted at once, so one run says everything that is wrong; the node counts are
 * also written to test-results/axe-<scheme>.json (issue 17 asks for before/after counts).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiClient } from './helpers/api.ts'
import { seriousViolations, type AxeFinding } from './helpers/axe.ts'
import { watchNetwork } from './helpers/network.ts'
import { SHOTS, startDashboardSession, type DashboardSession } from './helpers/session.ts'

const TOKEN = 'a11y-test-token'
/** dashboard/src/state/url-state.ts SETTINGS_TABS (that module needs a browser `location`). */
const SETTINGS_TABS = ['ingestion', 'logs', 'maintenance', 'plugins', 'ingest', 'alerts', 'tracker', 'releases', 'connectors']
const FIXTURES = join(new URL('../../', import.meta.url).pathname, 'test', 'fixtures', 'logs')
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const recent = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)
const [year, month, date] = recent.split('-') as [string, string, string]
/** The fixtures with their dates moved to two days ago (every date format they use). */
const fixture = (name: string) =>
  readFileSync(join(FIXTURES, name), 'utf8')
    .replaceAll('2026-08-20', recent)
    .replaceAll('01/Jan/2026', `${date}/${MONTHS[Number(month) - 1]}/${year}`)
    .replaceAll('2026/01/01', `${year}/${month}/${date}`)

let session: DashboardSession
let api: ReturnType<typeof apiClient>['call']
let issueId = 0

interface View {
  readonly name: string
  readonly path: string
  /** What shows the view is ready (its content, not a skeleton). */
  readonly ready: (page: Page) => Promise<unknown>
  /** Opens a dialog on top of the page; then only the dialog is scanned (the page was scanned on its own). */
  readonly open?: (page: Page) => Promise<unknown>
  /** Changes the page (unfolds the overview) before the whole page is scanned. */
  readonly act?: (page: Page) => Promise<unknown>
}

const views = (): View[] => [
  { name: 'issues', path: '/', ready: (page) => page.locator('tr.issue-row').first().waitFor() },
  {
    name: 'issues-overview-open',
    path: '/?severity=ERROR',
    ready: (page) => page.locator('tr.issue-row').first().waitFor(),
    act: async (page) => {
      await page.getByRole('heading', { name: 'Overview' }).getByRole('button').click()
      await page.locator('.trend-canvas canvas').first().waitFor()
    },
  },
  { name: 'inspector', path: `/?issue=${issueId}`, ready: (page) => page.getByTestId('inspector').locator('.facts').waitFor() },
  { name: 'analytics', path: '/?view=analytics', ready: (page) => page.getByTestId('access-total').waitFor() },
  ...SETTINGS_TABS.map((tab) => ({ name: `settings-${tab}`, path: `/?view=settings&tab=${tab}`, ready: (page: Page) => page.locator(`#panel-${tab} > *`).first().waitFor() })),
  { name: 'apps-dialog', path: '/', ready: (page) => page.locator('tr.issue-row').first().waitFor(), open: (page) => page.getByRole('button', { name: 'Manage applications and modules' }).click() },
  { name: 'tags-dialog', path: '/', ready: (page) => page.locator('tr.issue-row').first().waitFor(), open: (page) => page.getByRole('button', { name: 'Tags', exact: true }).click() },
  { name: 'manual-issue-dialog', path: '/', ready: (page) => page.locator('tr.issue-row').first().waitFor(), open: (page) => page.getByRole('button', { name: 'New issue' }).click() },
  { name: 'api-key-dialog', path: '/', ready: (page) => page.locator('tr.issue-row').first().waitFor(), open: (page) => page.getByRole('button', { name: 'API key' }).click() },
]

beforeAll(async () => {
  session = await startDashboardSession('a11y', { SERVICE_TOKEN: TOKEN, SERVICE_SECRET: 'a11y-secret' })
  api = apiClient(session.worker.url, TOKEN).call
  for (const id of ['http_ingest', 'releases', 'access_analytics']) await api('plugins', { body: { id, enabled: true } })
  await api('import-incoming', { query: { file: 'billing/laravel.log' }, raw: fixture('laravel.log') })
  await api('import-incoming', { query: { file: 'worker/console.log' }, raw: fixture('console.log') })
  await api('import-incoming', { query: { file: 'web/access.log' }, raw: fixture('access.log') })
  const groups = await api<{ items: { id: number; title: string }[] }>('groups', { query: { limit: 200 } })
  issueId = groups.items.find((item) => item.title.includes('SQLSTATE[23000]'))!.id
  // Tag text on user colours (issue 17: a pale yellow and a dark violet, one of them hard in each theme).
  for (const [name, color] of [['triage', '#7c3aed'], ['pale', '#fde047']] as const) {
    const tag = await api<{ id: number }>('tags', { body: { name, color, icon: 'flame' } })
    await api('issue-tags', { body: { group_id: issueId, tag_id: tag.id } })
  }
  await api('issues', { body: { title: 'Checkout button misaligned on Safari', kind: 'task', severity: 'NOTICE' } })
}, 180_000)

afterAll(async () => {
  await session?.close()
})

async function scan(page: Page, include?: string): Promise<AxeFinding[]> {
  // Let transitions and late paints settle: axe reads computed colours.
  await page.waitForTimeout(250)
  return seriousViolations(page, include)
}

describe('accessibility (issue 17 item 11)', { timeout: 240_000 }, () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`has no serious or critical axe-core violation on any page or dialog (${scheme})`, async () => {
      const found: Record<string, AxeFinding[]> = {}
      const { context, page } = await session.openPage({ viewport: { width: 1440, height: 900 }, colorScheme: scheme })
      await context.addInitScript((token) => localStorage.setItem('loupe.token', token), TOKEN)
      const network = watchNetwork(page)
      for (const view of views()) {
        await page.goto(`${session.worker.url}${view.path}`)
        await view.ready(page)
        await network.quiet()
        await view.act?.(page)
        if (view.open) {
          await view.open(page)
          await page.locator('dialog[open]').waitFor()
          await network.quiet()
          found[view.name] = await scan(page, 'dialog[open]')
        } else {
          found[view.name] = await scan(page)
        }
        await page.screenshot({ path: join(SHOTS, `a11y-${scheme}-${view.name}.png`) })
      }
      await context.close()

      // Without a saved key the server's 401 leads to the API-key screen.
      const keyless = await session.openPage({ viewport: { width: 1440, height: 900 }, colorScheme: scheme })
      const keylessNetwork = watchNetwork(keyless.page)
      await keyless.page.goto(session.worker.url)
      await keyless.page.locator('#api-key').waitFor()
      await keylessNetwork.quiet()
      found['api-key-screen'] = await scan(keyless.page)
      await keyless.page.screenshot({ path: join(SHOTS, `a11y-${scheme}-api-key-screen.png`) })
      await keyless.context.close()

      const counts = Object.fromEntries(Object.entries(found).map(([name, list]) => [name, list.reduce((sum, finding) => sum + finding.nodes, 0)]))
      writeFileSync(join(SHOTS, `axe-${scheme}.json`), JSON.stringify({ total: Object.values(counts).reduce((a, b) => a + b, 0), counts, found }, null, 2))
      const failing = Object.fromEntries(Object.entries(found).filter(([, list]) => list.length > 0))
      expect(failing).toEqual({})
    })
  }
})
