/**
 * The issue list in a real headless Chromium against `wrangler dev` (issue 17 items 1, 3, 4, 9, 12): priority
 * order with badges, trend sparklines and first seen; page x of N with first/last and a scroll to the list's
 * top; j/k/Enter; focus kept after status changes from the row menu and the bulk bar; the sticky header and
 * bar; phone cards at 390×844; axe with no serious findings in light and dark. Screenshots land in test-results/.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from './helpers/axe.ts'
import { SHOTS, startDashboardSession, type DashboardSession } from './helpers/session.ts'

let session: DashboardSession
let page: Page
let problems: string[]
let api: DashboardSession['api']
let base: string

type Row = { id: number; title: string; severity: string; status: string; trend: number[]; badges: string[]; count: number }
const groups = (query: Record<string, string | number> = {}) => api<{ items: Row[]; meta: { total: number; pages: number } }>('groups', { query: { include_stack: 0, include_context: 0, ...query } })
const shot = (target: Page, name: string) => target.screenshot({ path: join(SHOTS, `issue-list-${name}.png`) })
const params = () => new URL(page.url()).searchParams
const rowTitles = (target: Page = page) => target.locator('tr.issue-row .issue-link').allTextContents()
/** The right edge of the widest thing in the list (the list alone: the shell has its own test, shell-dashboard.test.ts). */
const listRight = (target: Page) => target.evaluate(() => Math.max(...Array.from(document.querySelectorAll('#issues, #issues *'), (element) => element.getBoundingClientRect().right)))
/** A fresh page at another size and colour scheme, for the axe scans (served with the real CSP). */
async function axePage(viewport: { width: number; height: number }, colorScheme: 'light' | 'dark') {
  const { context, page } = await session.openPage({ viewport, colorScheme })
  return { context, page }
}
const activeRowId = () => page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-issue-id') ?? null)

const TODAY = new Date().toISOString().slice(0, 10)
const line = (level: string, message: string, second: number) =>
  `[${TODAY} 00:${String(Math.floor(second / 60) % 60).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}] production.${level}: ${message}\n`
/** A letters-only issue name (digits would be normalised away and merge the issues). */
const word = (index: number) => `q${String.fromCharCode(97 + Math.floor(index / 26))}${String.fromCharCode(97 + (index % 26))}`

beforeAll(async () => {
  session = await startDashboardSession('issue-list-dashboard', {}, { viewport: { width: 1440, height: 900 }, colorScheme: 'light' })
  ;({ page, problems, api } = session)
  base = session.worker.url
  await api('ingestion-settings', { body: { severities: ['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR', 'WARNING', 'NOTICE', 'INFO', 'DEBUG'] } })
  // 60 issues: one EMERGENCY seen once, one NOTICE seen 30 times, 58 ERROR/WARNING issues seen 1–3 times.
  let body = line('EMERGENCY', 'Primary database unreachable', 0)
  for (let i = 0; i < 30; i++) body += line('NOTICE', 'Cache warmed slowly', 1 + i)
  for (let i = 0; i < 58; i++) {
    for (let n = 0; n <= i % 3; n++) body += line(i % 2 === 0 ? 'ERROR' : 'WARNING', `Widget ${word(i)} failed to render`, 31 + i)
  }
  await api('import-incoming', { query: { file: 'web/laravel.log' }, raw: body })
}, 120_000)

afterAll(async () => {
  await session?.close()
})

describe('issue list', { timeout: 60_000 }, () => {
  it('shows the priority order by default: EMERGENCY first, the busy NOTICE after every ERROR and WARNING', async () => {
    await page.goto(`${base}/?limit=25`)
    const expected = await groups({ sort: 'priority', limit: 25 })
    expect(expected.meta.total).toBe(60)
    await expect.poll(() => rowTitles()).toEqual(expected.items.map((item) => item.title))
    expect(expected.items[0]!.title).toBe('Primary database unreachable')
    expect(await page.locator('#filter-sort').inputValue()).toBe('priority')
    const last = await groups({ sort: 'priority', limit: 25, page: 3 })
    expect(last.items.at(-1)!.title).toBe('Cache warmed slowly')
    // Headers, the trend of each row (as the API gives it), first seen and the `new` badge.
    expect(await page.locator('.issue-table thead th').allTextContents()).toEqual(['', 'Severity', 'Issue', 'Status', 'Events', '14 days', 'First seen', 'Last seen', 'Actions'])
    const first = page.locator(`tr[data-issue-id="${expected.items[0]!.id}"]`)
    expect(await first.locator('.sparkline').getAttribute('data-trend')).toBe(expected.items[0]!.trend.join(','))
    expect(expected.items[0]!.trend.at(-1)).toBe(1)
    expect(await first.locator('.sparkline').getAttribute('aria-label')).toBe('1 event in 14 days, 1 today')
    expect(await first.locator('.triage-badge').allTextContents()).toEqual(['New'])
    expect(await first.locator('.col-first').textContent()).toMatch(/ago$/)
    await shot(page, '1440-table')
  })

  it('filters to a severity and worse (min_severity in the URL)', async () => {
    await page.locator('#filter-min_severity').selectOption('ERROR')
    await expect.poll(() => params().get('min_severity')).toBe('ERROR')
    const errors = await groups({ sort: 'priority', min_severity: 'ERROR', limit: 25 })
    expect(errors.meta.total).toBe(30)
    await expect.poll(() => rowTitles()).toEqual(errors.items.map((item) => item.title))
    // (The first 25 rows are the same either way — ERROR and worse rank first — so wait for the count.)
    await expect.poll(() => page.getByTestId('match-count').textContent()).toBe('30 matching groups')
    await page.getByRole('button', { name: 'Remove filter severity: ERROR and worse' }).click()
    await expect.poll(() => params().get('min_severity')).toBe(null)
  })

  it('pages with first/last, says page x of N, and scrolls back to the top of the list', async () => {
    await page.goto(`${base}/?limit=25`)
    await expect.poll(() => page.getByTestId('page-of').textContent()).toBe('Page 1 of 3')
    await page.locator('.pagination').scrollIntoViewIfNeeded()
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300)
    await page.getByRole('button', { name: 'Last', exact: true }).click()
    await expect.poll(() => params().get('page')).toBe('3')
    await expect.poll(() => page.getByTestId('page-of').textContent()).toBe('Page 3 of 3')
    const third = await groups({ sort: 'priority', limit: 25, page: 3 })
    await expect.poll(() => rowTitles()).toEqual(third.items.map((item) => item.title))
    // The list's top is back in view, under the sticky top bar (as high as the shorter last page lets it go).
    const top = await page.evaluate(() => document.getElementById('issues')!.getBoundingClientRect().top)
    expect(top).toBeGreaterThanOrEqual(54)
    expect(top).toBeLessThan(300)
    // "Last" on the last page is aria-disabled and keeps its focus.
    expect(await page.getByRole('button', { name: 'Last', exact: true }).getAttribute('aria-disabled')).toBe('true')
    await page.locator('.pagination').scrollIntoViewIfNeeded()
    await page.getByRole('button', { name: 'First', exact: true }).click()
    await expect.poll(() => params().get('page')).toBe(null)
    await expect.poll(() => page.getByTestId('page-of').textContent()).toBe('Page 1 of 3')
    // The new page's rows and the scroll land in the same frame (a layout effect), so no poll is needed.
    expect(Math.abs((await page.evaluate(() => document.getElementById('issues')!.getBoundingClientRect().top)) - 56)).toBeLessThanOrEqual(2)
  })

  it('keeps the table header and the bulk bar in view while scrolling', async () => {
    await page.goto(`${base}/?limit=50`)
    await expect.poll(() => page.locator('tr.issue-row').count()).toBe(50)
    await page.evaluate(() => window.scrollTo(0, document.getElementById('issues')!.getBoundingClientRect().top + window.scrollY + 900))
    await expect.poll(() => page.evaluate(() => Math.round(document.querySelector('.issue-table thead th')!.getBoundingClientRect().top))).toBe(56)
    await page.locator('tr.issue-row').nth(20).locator('input[type=checkbox]').check()
    const bar = page.getByTestId('bulk-bar')
    await bar.waitFor()
    const barBox = await bar.boundingBox()
    expect(Math.abs(barBox!.y - 56)).toBeLessThanOrEqual(2)
    const headTop = await page.evaluate(() => document.querySelector('.issue-table thead th')!.getBoundingClientRect().top)
    expect(headTop).toBeGreaterThanOrEqual(barBox!.y + barBox!.height - 1)
    await shot(page, '1440-sticky')
    await bar.getByRole('button', { name: 'Clear selection' }).click()
    await expect.poll(() => bar.count()).toBe(0)
    // The bar held focus when it went: focus goes to the list, not <body> (on the next frame: issue-list.tsx).
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('issues')
  })

  it('moves through rows with j/k and opens one with Enter', async () => {
    await page.goto(`${base}/?limit=25`)
    const expected = await groups({ sort: 'priority', limit: 25 })
    await expect.poll(() => rowTitles()).toEqual(expected.items.map((item) => item.title))
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.keyboard.press('j')
    expect(await activeRowId()).toBe(String(expected.items[0]!.id))
    await page.keyboard.press('j')
    await page.keyboard.press('j')
    expect(await activeRowId()).toBe(String(expected.items[2]!.id))
    await page.keyboard.press('k')
    expect(await activeRowId()).toBe(String(expected.items[1]!.id))
    await page.keyboard.press('Enter')
    await expect.poll(() => params().get('issue')).toBe(String(expected.items[1]!.id))
    await page.getByTestId('inspector').waitFor()
    await page.keyboard.press('Escape')
    await expect.poll(() => params().get('issue')).toBe(null)
    // Typing j in a field types it.
    await page.locator('#search-input').focus()
    await page.keyboard.press('j')
    expect(await page.locator('#search-input').inputValue()).toBe('j')
    await page.locator('#search-input').fill('')
  })

  it('keeps focus on the control after a status change from the row menu and from the bulk bar', async () => {
    await page.goto(`${base}/?limit=25`)
    const expected = await groups({ sort: 'priority', limit: 25 })
    await expect.poll(() => rowTitles()).toEqual(expected.items.map((item) => item.title))
    const target = expected.items[3]!
    const row = page.locator(`tr[data-issue-id="${target.id}"]`)
    // Keyboard only: focus the menu button, open it, pick "Mark in progress".
    await row.locator('.row-actions-button').focus()
    await page.keyboard.press('Enter')
    const menu = row.getByRole('menu')
    await menu.waitFor()
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem')
    await shot(page, '1440-row-menu')
    await menu.getByRole('menuitem', { name: 'Mark in progress' }).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => row.locator('.status').textContent()).toBe('In progress')
    expect((await api('group', { query: { id: target.id } })).group.status).toBe('in_progress')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Actions for ${target.title}`)

    // The bulk bar: two rows selected, "Set status" pressed from the keyboard; focus stays on it.
    const [a, b] = [expected.items[5]!, expected.items[6]!]
    await page.locator(`tr[data-issue-id="${a.id}"] input[type=checkbox]`).check()
    await page.locator(`tr[data-issue-id="${b.id}"] input[type=checkbox]`).check()
    const bar = page.getByTestId('bulk-bar')
    await bar.locator('#bulk-status').selectOption('wont_fix')
    await bar.getByRole('button', { name: 'Set status' }).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator(`tr[data-issue-id="${b.id}"] .status`).textContent()).toBe("Won't fix")
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Set status')
    expect(await bar.textContent()).toContain('2 issues selected')

    // Under a status filter the changed issue leaves the list: focus moves to the same control of the row
    // that took its place, never to <body>.
    await page.goto(`${base}/?limit=25&status=open`)
    const open = await groups({ sort: 'priority', limit: 25, status: 'open' })
    await expect.poll(() => rowTitles()).toEqual(open.items.map((item) => item.title))
    const leaving = open.items[0]!
    await page.locator(`tr[data-issue-id="${leaving.id}"] .row-actions-button`).click()
    await page.getByRole('menuitem', { name: 'Mark fixed' }).click()
    await expect.poll(() => page.locator(`tr[data-issue-id="${leaving.id}"]`).count()).toBe(0)
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Actions for ${open.items[1]!.title}`)
  })

  it('has no serious or critical axe findings in light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const axe = await axePage({ width: 1440, height: 900 }, colorScheme)
      await axe.page.goto(`${base}/?limit=25`)
      await axe.page.locator('tr.issue-row').first().waitFor()
      await axe.page.locator('tr.issue-row').nth(1).locator('input[type=checkbox]').check()
      await axe.page.getByTestId('bulk-bar').waitFor()
      // The list (with its bulk bar and pager); the shell and overview are scanned by accessibility.test.ts.
      const found = await seriousViolations(axe.page, '#issues')
      expect(found, `${colorScheme}: ${JSON.stringify(found)}`).toEqual([])
      const filters = await seriousViolations(axe.page, '.filters')
      expect(filters, `${colorScheme} filters: ${JSON.stringify(filters)}`).toEqual([])
      // The open menu on its own (axe reads the rows it covers as low-contrast text on the menu).
      await axe.page.locator('tr.issue-row').first().locator('.row-actions-button').click()
      await axe.page.getByRole('menu').waitFor()
      const menu = await seriousViolations(axe.page, '.row-actions-menu')
      expect(menu, `${colorScheme} menu: ${JSON.stringify(menu)}`).toEqual([])
      await shot(axe.page, `1440-${colorScheme}-menu`)
      await axe.context.close()
    }
  })

  it('shows one card per issue on a phone (390×844) with the actions in a menu, and fits 1024×768', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const phone = await session.openPage({ viewport: { width: 390, height: 844 }, colorScheme })
      await phone.page.goto(`${base}/?limit=25`)
      const expected = await groups({ sort: 'priority', limit: 25 })
      await expect.poll(() => rowTitles(phone.page)).toEqual(expected.items.map((item) => item.title))
      const card = phone.page.locator('tr.issue-row').first()
      expect(await card.evaluate((element) => getComputedStyle(element).display)).toBe('grid')
      expect(await phone.page.locator('.issue-table thead').isVisible()).toBe(false)
      // Severity, title, count and last seen visible; the checkbox, status and trend are not.
      expect(await card.locator('.severity').isVisible()).toBe(true)
      expect(await card.locator('.issue-link').isVisible()).toBe(true)
      expect((await card.locator('.col-count').innerText()).trim()).toBe('1 event')
      expect(await card.locator('.col-seen').innerText()).toMatch(/^Last seen /)
      for (const hidden of ['input[type=checkbox]', '.col-status', '.col-trend']) expect(await card.locator(hidden).isVisible(), hidden).toBe(false)
      // Nothing in the list wider than the screen.
      expect(await listRight(phone.page)).toBeLessThanOrEqual(390)
      await card.getByRole('button', { name: `Actions for ${expected.items[0]!.title}` }).click()
      const menu = card.getByRole('menu')
      // Every status but its own (and `reoccurred`, which only a new occurrence sets).
      const statuses = { open: 'Mark open', in_progress: 'Mark in progress', fixed: 'Mark fixed', wont_fix: "Mark won't fix" }
      const others = Object.entries(statuses).filter(([status]) => status !== expected.items[0]!.status).map(([, label]) => label)
      expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Open', 'Select', ...others])
      await shot(phone.page, `390-cards-${colorScheme}`)
      await menu.getByRole('menuitem', { name: 'Select' }).click()
      await phone.page.getByTestId('bulk-bar').waitFor()
      expect(phone.problems).toEqual([])
      await phone.context.close()
    }
    const tablet = await session.openPage({ viewport: { width: 1024, height: 768 } })
    await tablet.page.goto(`${base}/?limit=25`)
    await tablet.page.locator('tr.issue-row').first().waitFor()
    expect(await listRight(tablet.page)).toBeLessThanOrEqual(1024)
    expect(await tablet.page.locator('.issue-age').first().isVisible()).toBe(true)
    expect(await tablet.page.locator('.col-first').first().isVisible()).toBe(false)
    await tablet.page.evaluate(() => document.getElementById('issues')!.scrollIntoView({ block: 'start' }))
    await shot(tablet.page, '1024-table')
    await tablet.context.close()
    expect(problems).toEqual([])
  })

  it('has no serious or critical axe findings on the phone cards, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const axe = await axePage({ width: 390, height: 844 }, colorScheme)
      await axe.page.goto(`${base}/?limit=25`)
      await axe.page.locator('tr.issue-row').first().waitFor()
      expect(await seriousViolations(axe.page, '#issues'), colorScheme).toEqual([])
      await axe.context.close()
    }
  })
})
