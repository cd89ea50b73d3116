/**
 * The dashboard in a real headless Chromium against the real worker (`wrangler dev`, embedded database).
 * One page walks through a triage session in order — each step builds on the previous one — and screenshots
 * of each step land in test-results/ (look at them when the UI changes).
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureDashboardBuilt, firstLoadJs, FIRST_LOAD_JS_BUDGET } from '../../tools/build-dashboard.ts'
import { apiClient } from './helpers/api.ts'
import { launchChromium, watchProblems } from './helpers/browser.ts'
import { startWorker, type RunningWorker } from '../../tools/worker-process.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const FIXTURES = join(ROOT, 'test', 'fixtures', 'logs')
const SHOTS = join(ROOT, 'test-results')
/** Issue 17: the trend ends today, so the fixtures' day (2026-08-20) is moved to two days ago to be on it. */
const RECENT = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8').replaceAll('2026-08-20', RECENT)

let worker: RunningWorker
let browser: Browser
let context: BrowserContext
let page: Page
let problems: string[]
let api: ReturnType<typeof apiClient>['call']

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `dashboard-${name}.png`) })
const row = (text: string | RegExp) => page.locator('tr.issue-row', { hasText: text })
const params = () => new URL(page.url()).searchParams
const groups = (query: Record<string, string> = {}) => api<{ items: { id: number; title: string; tags: { name: string }[]; status: string }[]; meta: { total: number } }>('groups', { query: { limit: 200, ...query } })

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  await ensureDashboardBuilt()
  ;[worker, browser] = await Promise.all([startWorker(), launchChromium()])
  api = apiClient(worker.url).call
  // Seed: three log files in three modules, a tag, and two manual issues (one with a formula-like title).
  await api('import-incoming', { query: { file: 'billing/laravel.log' }, raw: fixture('laravel.log') })
  await api('import-incoming', { query: { file: 'worker/console.log' }, raw: fixture('console.log') })
  await api('import-incoming', { query: { file: 'web/access.log' }, raw: fixture('access.log') })
  await api('tags', { body: { name: 'triage', color: '#7c3aed', icon: 'flame' } })
  await api('issues', { body: { title: '=HYPERLINK("http://evil.test","click me")', kind: 'bug', severity: 'ERROR', description: 'A title a spreadsheet would run, "quoted", with a comma.' } })
  await api('issues', { body: { title: 'Checkout button misaligned on Safari', kind: 'task', severity: 'NOTICE' } })
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light', acceptDownloads: true })
  page = await context.newPage()
  problems = watchProblems(page)
}, 120_000)

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await worker?.stop()
})

describe('dashboard', { timeout: 20_000 }, () => {
  it('keeps first-load JavaScript under the 150 KB gzipped budget and ships no inline script', () => {
    const size = firstLoadJs()
    expect(size.files.length).toBeGreaterThan(0)
    expect(size.gzip).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET)
    const html = readFileSync(join(ROOT, 'dashboard', 'dist', 'index.html'), 'utf8')
    for (const script of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      expect(script[1]).toMatch(/\ssrc=/)
      expect(script[2]!.trim()).toBe('')
    }
    expect(html).not.toMatch(/\son[a-z]+=/i)
  })

  it('serves the dashboard with the strict CSP and shows overview numbers from summary', async () => {
    const response = await page.goto(worker.url)
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'")
    const summary = await api('summary')
    const errors = summary.severity.filter((row: any) => ['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR'].includes(row.severity)).reduce((sum: number, row: any) => sum + row.occurrences, 0)
    await expect.poll(() => page.getByTestId('metric-events').textContent()).toContain(String(summary.total.occurrences))
    expect(await page.getByTestId('metric-groups').textContent()).toContain(String(summary.total.groups_count))
    expect(await page.getByTestId('metric-errors').textContent()).toContain(String(errors))
    expect(summary.total.groups_count).toBeGreaterThan(5)
    await expect.poll(() => page.locator('tr.issue-row').count()).toBe(summary.total.groups_count)
    expect(await page.getByTestId('match-count').textContent()).toBe(`${summary.total.groups_count} matching groups`)
    // Issue 17: the overview is a strip; its heading's button unfolds the trend (and stays unfolded).
    await page.getByRole('heading', { name: 'Overview' }).getByRole('button').click()
    await page.locator('.trend-canvas canvas').first().waitFor()
    await expect.poll(() => page.locator('.source-item').count()).toBe(3)
    await shot('01-overview')
  })

  it('filters by severity and search, keeps both in the URL, and back/forward restore them', async () => {
    const all = (await groups()).meta.total
    const warnings = await groups({ severity: 'WARNING' })
    await page.locator('#filter-severity').selectOption('WARNING')
    await expect.poll(() => page.locator('tr.issue-row').count()).toBe(warnings.meta.total)
    expect(params().get('severity')).toBe('WARNING')

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.keyboard.press('/')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-input')
    await page.keyboard.type('gateway', { delay: 20 })
    await expect.poll(() => params().get('q')).toBe('gateway')
    const narrowed = await groups({ severity: 'WARNING', q: 'gateway' })
    expect(narrowed.meta.total).toBe(1)
    await expect.poll(() => page.locator('tr.issue-row').count()).toBe(1)
    await row('Payment gateway slow').waitFor()
    await shot('02-filtered')

    await page.goBack()
    await expect.poll(() => params().get('q')).toBe(null)
    expect(params().get('severity')).toBe('WARNING')
    await expect.poll(() => page.locator('tr.issue-row').count()).toBe(warnings.meta.total)
    expect(await page.locator('#search-input').inputValue()).toBe('')
    expect(await page.locator('#filter-severity').inputValue()).toBe('WARNING')

    await page.goBack()
    await expect.poll(() => page.locator('tr.issue-row').count()).toBe(all)
    expect(await page.locator('#filter-severity').inputValue()).toBe('')
    await page.goForward()
    await expect.poll(() => page.locator('tr.issue-row').count()).toBe(warnings.meta.total)
    await page.goto(worker.url)
    await expect.poll(() => page.locator('tr.issue-row').count()).toBe(all)

    // The trend chart picks a day with the keyboard too: the newest day (all fixtures' events) filters the list.
    const newestDay = (await api('summary')).trend.at(-1).day
    // The window ends today (issue 17): from today, step back to the data's day.
    await page.locator('.trend-canvas').focus()
    await page.keyboard.press('ArrowRight')
    const back = Math.round((Date.parse(new Date().toISOString().slice(0, 10)) - Date.parse(newestDay)) / 86_400_000)
    for (let step = 0; step < back; step++) await page.keyboard.press('ArrowLeft')
    await expect.poll(() => page.locator('.trend-readout').textContent()).toContain(newestDay)
    await page.keyboard.press('Enter')
    await expect.poll(() => params().get('date')).toBe(newestDay)
    await expect.poll(() => page.locator('tr.issue-row').count()).toBe((await groups({ date: newestDay })).meta.total)
    await page.goBack()
    await expect.poll(() => page.locator('tr.issue-row').count()).toBe(all)
  })

  it('opens an issue in the inspector with details, folded vendor frames, occurrences and the raw event', async () => {
    await row('SQLSTATE[23000]').locator('.issue-link').click()
    const inspector = page.getByTestId('inspector')
    await inspector.locator('.facts').waitFor()
    const id = Number(params().get('issue'))
    expect(id).toBeGreaterThan(0)
    expect(await inspector.locator('#inspector-title').textContent()).toContain('SQLSTATE[23000]')
    expect(await inspector.locator('.facts').textContent()).toContain('Illuminate\\Database\\QueryException')
    expect(await inspector.locator('.facts').textContent()).toContain('Billing')
    // Vendor frames are folded; the app frame stays visible.
    const vendor = inspector.locator('details.vendor-frames')
    expect(await vendor.count()).toBeGreaterThan(0)
    expect(await vendor.first().getAttribute('open')).toBe(null)
    expect(await inspector.getByTestId('stack').textContent()).toContain('InvoiceWriter.php')
    expect(await inspector.locator('.history, .inspector-section', { hasText: 'No status changes yet.' }).count()).toBeGreaterThan(0)
    await inspector.getByRole('button', { name: 'Raw event' }).first().click()
    await expect.poll(() => inspector.getByTestId('raw-event').textContent()).toContain('production.ERROR: SQLSTATE[23000]')
    await shot('03-inspector')
  })

  it('changes the status with a note: the history grows and the table follows', async () => {
    const inspector = page.getByTestId('inspector')
    const id = Number(params().get('issue'))
    await inspector.locator('#inspector-status').selectOption('fixed')
    await inspector.locator('#inspector-note').fill('Unique index fixed in release 1.4.2')
    await inspector.getByRole('button', { name: 'Set to Fixed' }).click()
    await expect.poll(() => inspector.getByTestId('status-history').textContent()).toContain('Unique index fixed in release 1.4.2')
    await expect.poll(() => row('SQLSTATE[23000]').locator('.status').textContent()).toBe('Fixed')
    const detail = await api('group', { query: { id } })
    expect(detail.group.status).toBe('fixed')
    expect(detail.status_history[0]).toMatchObject({ from_status: 'open', to_status: 'fixed', note: 'Unique index fixed in release 1.4.2' })
    await inspector.getByTestId('status-history').scrollIntoViewIfNeeded()
    await shot('04-status-changed')

    // Escape closes the inspector and puts focus back on the row.
    await page.keyboard.press('Escape')
    await expect.poll(() => params().get('issue')).toBe(null)
    await expect.poll(() => inspector.count()).toBe(0)
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-issue-id'))).toBe(String(id))
  })

  it('creates a tag with a rule in the tag manager, showing API validation next to the field, and applies it', async () => {
    await page.getByRole('button', { name: 'Tags', exact: true }).click()
    const dialog = page.locator('dialog[open]')
    await dialog.getByRole('button', { name: 'New tag' }).click()
    // Client-side check (same words as the server) for the colour…
    await dialog.locator('#tag-name').fill('Triage')
    await dialog.locator('#tag-color').fill('red')
    await dialog.getByRole('button', { name: 'Create tag' }).click()
    expect(await dialog.locator('#tag-color-error').textContent()).toBe('Tag color must be a hex color like #64748b.')
    expect(await dialog.locator('#tag-color').getAttribute('aria-invalid')).toBe('true')
    // …and the API's own 422 (a duplicate name, only the server knows) next to the name.
    await dialog.locator('#tag-color').fill('#0ea5e9')
    await dialog.getByRole('button', { name: 'Create tag' }).click()
    await expect.poll(() => dialog.locator('#tag-name-error').textContent()).toBe('A tag with this name already exists.')
    await shot('05-tag-validation')

    await dialog.locator('#tag-name').fill('redis')
    await dialog.getByRole('button', { name: 'database' }).click()
    await dialog.locator('#tag-word').fill('REDIS')
    await dialog.getByRole('button', { name: 'Create tag' }).click()
    const created = dialog.locator('tr[data-tag-name="redis"]')
    await created.waitFor()
    expect(await created.textContent()).toContain('REDIS')
    expect(await created.textContent()).toContain('1 issue')
    await shot('06-tag-manager')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator('dialog[open]').count()).toBe(0)
    await expect.poll(() => row('redis: connection refused').locator('.tag-chip').allTextContents()).toContain('redis')
    const tagged = (await groups({ tag: 'redis' })).items
    expect(tagged.map((item) => item.title)).toEqual([expect.stringContaining('redis: connection refused')])
  })

  it('bulk-tags two issues through the bulk bar', async () => {
    await row('Payment gateway slow').locator('input[type=checkbox]').check()
    await row('queue depth').locator('input[type=checkbox]').check()
    const bar = page.getByTestId('bulk-bar')
    expect(await bar.textContent()).toContain('2 issues selected')
    await bar.locator('#bulk-tag').selectOption({ label: 'triage' })
    await shot('07-bulk-bar')
    await bar.getByRole('button', { name: 'Add tag' }).click()
    await expect.poll(() => row('Payment gateway slow').locator('.tag-chip').allTextContents()).toContain('triage')
    await expect.poll(() => row('queue depth').locator('.tag-chip').allTextContents()).toContain('triage')
    // Issue 17 item 12: the selection and the bar stay, and focus stays on the button used.
    expect(await bar.textContent()).toContain('2 issues selected')
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Add tag')
    await bar.getByRole('button', { name: 'Clear selection' }).click()
    await expect.poll(() => page.getByTestId('bulk-bar').count()).toBe(0)
    const tagged = (await groups({ tag: 'triage' })).items.map((item) => item.title).sort()
    expect(tagged).toEqual([expect.stringContaining('Payment gateway slow'), expect.stringContaining('queue depth')])
  })

  it('edits a tag (its rule is rebuilt) and deletes it', async () => {
    await page.getByRole('button', { name: 'Tags', exact: true }).click()
    const dialog = page.locator('dialog[open]')
    await dialog.getByRole('button', { name: 'Edit tag redis' }).click()
    expect(await dialog.locator('#tag-word').inputValue()).toBe('REDIS')
    await dialog.locator('#tag-word').fill('queue depth')
    await dialog.getByRole('button', { name: 'Save tag' }).click()
    await expect.poll(() => dialog.locator('tr[data-tag-name="redis"]').textContent()).toContain('queue depth')
    await expect.poll(() => row('queue depth').locator('.tag-chip').allTextContents()).toContain('redis')
    expect(await row('redis: connection refused').locator('.tag-chip').allTextContents()).not.toContain('redis')

    await dialog.getByRole('button', { name: 'Delete tag redis' }).click()
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
    await expect.poll(() => dialog.locator('tr[data-tag-name="redis"]').count()).toBe(0)
    await expect.poll(() => row('queue depth').locator('.tag-chip').allTextContents()).toEqual(['triage'])
    expect((await api('tags')).data.map((tag: { name: string }) => tag.name)).toEqual(['triage'])
    await page.keyboard.press('Escape')
  })

  it('exports the current page as CSV with formula protection and proper quoting', async () => {
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export CSV' }).click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(/^loupe-issues-default-p1-.*\.csv$/)
    const csv = readFileSync((await file.path())!, 'utf8')
    const lines = csv.trimEnd().split('\r\n')
    expect(lines[0]).toBe('severity,module,title,exception,source,status,count,first_seen,last_seen')
    expect(lines.length).toBe(1 + (await page.locator('tr.issue-row').count()))
    // The formula-like title is defused with a leading quote and CSV-quoted (it contains quotes and commas).
    expect(csv).toContain(`ERROR,,"'=HYPERLINK(""http://evil.test"",""click me"")",,,open,0,`)
    expect(csv).toMatch(/\nERROR,Billing,SQLSTATE\[23000\]: Integrity constraint violation: 1062 Duplicate entry 'inv-1' for key 'invoices_reference_unique',Illuminate\\Database\\QueryException,\/app\/app\/Services\/InvoiceWriter\.php:64,fixed,1,/)
  })

  it('creates a manual issue, with validation shown next to the field', async () => {
    await page.getByRole('button', { name: 'New issue' }).click()
    const dialog = page.locator('dialog[open]')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('issue-title')
    await dialog.getByRole('button', { name: 'Create issue' }).click()
    expect(await dialog.locator('#issue-title-error').textContent()).toBe('Issue title is required.')
    await dialog.locator('#issue-title').fill('Refund emails are sent twice')
    await dialog.locator('#issue-kind').selectOption('bug')
    await dialog.locator('#issue-severity').selectOption('ERROR')
    await dialog.locator('#issue-module_id').selectOption({ label: 'Billing' })
    await dialog.getByRole('button', { name: 'triage' }).click()
    await dialog.locator('#issue-note').fill('Reported by support')
    await shot('08-manual-issue')
    await dialog.getByRole('button', { name: 'Create issue' }).click()
    const inspector = page.getByTestId('inspector')
    await expect.poll(() => inspector.locator('#inspector-title').textContent()).toBe('Refund emails are sent twice')
    await expect.poll(() => inspector.getByTestId('status-history').textContent()).toContain('Reported by support')
    expect(await inspector.locator('.tag-toggle.on').allTextContents()).toEqual(['triage'])
    await row('Refund emails are sent twice').waitFor()
    await page.keyboard.press('Escape')
  })

  it('uploads a log file in Settings → Logs and its issues appear', async () => {
    await page.getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('tab', { name: 'Logs' }).click()
    expect(params().get('view')).toBe('settings')
    expect(params().get('tab')).toBe('logs')
    await page.locator('#upload-file').setInputFiles(join(FIXTURES, 'horizon.log'))
    await page.locator('#upload-module').fill('jobs')
    await page.getByRole('button', { name: 'Upload and import' }).click()
    await expect.poll(() => page.getByTestId('upload-results').textContent()).toMatch(/horizon\.log: 1 file, 3 events, 3 issue groups/)
    // Per file: the format detected and what happened to every entry (the INFO lines are not on the allow-list).
    expect(await page.getByTestId('upload-file-results').textContent()).toBe('jobs/horizon.log read as horizon: 6 entries, 3 stored, 3 skipped by severity (INFO 3)')
    await shot('09-upload')
    await page.getByRole('link', { name: 'Issues' }).click()
    await page.locator('#search-input').fill('SyncCustomer')
    await expect.poll(() => page.locator('tr.issue-row').count()).toBe(2)
    expect(await row('Customer API returned 503').locator('.module-chip').textContent()).toBe('Jobs')
    await page.locator('.source-item', { hasText: 'horizon.log' }).click()
    await expect.poll(() => params().get('source')).toContain('horizon.log')
    await shot('10-uploaded-issues')
    await page.getByRole('button', { name: 'Clear all' }).click()
    await expect.poll(() => params().toString()).toBe('')
  })

  it('lists the plugins in Settings → Plugins, planned ones with their switch disabled, and switches HTTP ingest', async () => {
    await page.goto(`${worker.url}/?view=settings&tab=plugins`)
    const list = page.getByTestId('plugin-list')
    await expect.poll(() => list.locator('li').count()).toBe(5)
    expect(await list.locator('li strong').allTextContents()).toEqual(['Issue tracker', 'Alerting', 'HTTP ingest', 'Release tracking', 'Access-log analytics'])
    expect(await list.getByText('Coming soon').count()).toBe(0)
    const toggles = await list.getByRole('switch').all()
    expect(await Promise.all(toggles.map((toggle) => toggle.isDisabled()))).toEqual([false, false, false, false, false])
    // The issue tracker is on by default (reference §4.5); it stays idle until configured.
    expect(await Promise.all(toggles.map((toggle) => toggle.isChecked()))).toEqual([true, false, false, false, false])
    // HTTP ingest is built: its switch turns it on for the application, and off again.
    const enabled = async () => (await api('plugins')).data.find((plugin: { id: string }) => plugin.id === 'http_ingest').enabled
    await toggles[2]!.click()
    await expect.poll(enabled).toBe(true)
    await expect.poll(() => toggles[2]!.isChecked()).toBe(true)
    await shot('11-plugins')
    await toggles[2]!.click()
    await expect.poll(enabled).toBe(false)
  })

  it('saves ingestion severities and deletes a source after the typed confirmation', async () => {
    await page.goto(`${worker.url}/?view=settings&tab=ingestion`)
    await page.getByRole('button', { name: 'NOTICE', exact: true }).click()
    await page.getByRole('button', { name: 'Save severities' }).click()
    await expect.poll(async () => (await api('ingestion-settings')).ingested_severities).toEqual(['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR', 'WARNING', 'NOTICE']) // the defaults (WARNING and more severe) plus NOTICE

    await page.getByRole('tab', { name: 'Maintenance' }).click()
    await page.getByText('By source').click()
    const source = (await api('sources')).data.find((file: any) => file.channel === 'access.log')
    await page.locator('#deletion-source').selectOption(String(source.id))
    await page.getByRole('button', { name: 'Review deletion' }).click()
    const preview = page.getByTestId('deletion-preview')
    await expect.poll(() => preview.textContent()).toContain(`${source.occurrence_count} events`)
    const remove = preview.getByRole('button', { name: 'Delete logs' })
    expect(await remove.isDisabled()).toBe(true)
    await preview.locator('#deletion-confirmation').fill('delete logs')
    expect(await remove.isDisabled()).toBe(true)
    await preview.locator('#deletion-confirmation').fill('DELETE LOGS')
    await shot('11-deletion')
    await remove.click()
    await expect.poll(async () => (await groups({ q: 'HTTP 502' })).meta.total).toBe(0)
  })

  it('creates a module and an application, switches to it and back', async () => {
    await page.goto(worker.url)
    await page.getByRole('button', { name: 'Manage applications and modules' }).click()
    const dialog = page.locator('dialog[open]')
    await dialog.getByRole('button', { name: 'Create module' }).click()
    expect(await dialog.locator('#module-name-error').textContent()).toBe('Module name must contain 1–100 characters.')
    await dialog.locator('#module-name').fill('billing')
    await dialog.getByRole('button', { name: 'Create module' }).click()
    await expect.poll(() => dialog.locator('#module-name-error').textContent()).toBe('A module with that name or slug already exists.')
    await dialog.locator('#module-name').fill('Payments')
    await dialog.getByRole('button', { name: 'Create module' }).click()
    await expect.poll(() => dialog.locator('.module-list').textContent()).toContain('Payments')

    await dialog.locator('#app-name').fill('Staging')
    await dialog.locator('#app-id').fill('default')
    await dialog.getByRole('button', { name: 'Create application' }).click()
    await expect.poll(() => dialog.locator('#app-id-error').textContent()).toBe("The application id 'default' is reserved.")
    await dialog.locator('#app-id').fill('')
    await dialog.getByRole('button', { name: 'Create application' }).click()
    await expect.poll(() => params().get('app')).toBe('staging')
    await expect.poll(() => dialog.locator('#modules-heading').textContent()).toBe('Modules of Staging')
    await dialog.getByText('No modules yet.').waitFor()
    await shot('12-applications')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('metric-groups').textContent()).toContain('0')
    await page.getByText('No issues yet', { exact: true }).waitFor()
    expect(await page.locator('#app-select').inputValue()).toBe('staging')
    await page.locator('#app-select').selectOption({ label: 'Primary application' })
    await expect.poll(() => params().get('app')).toBe(null)
    await expect.poll(() => page.locator('tr.issue-row').count()).toBeGreaterThan(5)
  })

  it('switches to dark mode and remembers it', async () => {
    await page.goto(worker.url)
    const toggle = page.locator('[data-theme-preference]')
    while ((await toggle.getAttribute('data-theme-preference')) !== 'dark') await toggle.click()
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark')
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(await background()).toBe('rgb(14, 16, 20)')
    await page.reload()
    expect(await background()).toBe('rgb(14, 16, 20)')
    // One palette of light-dark() pairs: a token resolves to its dark half, as the trend chart reads it.
    const token = (name: string) =>
      page.evaluate((variable) => {
        const probe = document.createElement('span')
        probe.style.color = `var(${variable})`
        document.body.appendChild(probe)
        const color = getComputedStyle(probe).color
        probe.remove()
        return color
      }, name)
    expect(await token('--sev-error')).toBe('rgb(248, 113, 113)')
    await row('redis: connection refused').locator('.issue-link').click()
    await page.getByTestId('inspector').locator('.facts').waitFor()
    await page.locator('.trend-canvas canvas').first().waitFor()
    await shot('13-dark')
    while ((await toggle.getAttribute('data-theme-preference')) !== 'system') await toggle.click()
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(undefined)
    expect(await background()).toBe('rgb(245, 246, 248)')
    expect(await token('--sev-error')).toBe('rgb(220, 38, 38)')
  })

  it('logged no console errors, page errors or CSP violations', () => {
    expect(problems).toEqual([])
  })
})

describe('dashboard behind SERVICE_TOKEN', { timeout: 20_000 }, () => {
  const TOKEN = 'e2e-token-7f3a1c2e'
  let secured: RunningWorker
  let securedContext: BrowserContext

  beforeAll(async () => {
    secured = await startWorker({ SERVICE_TOKEN: TOKEN, SERVICE_CONFIG: JSON.stringify({ assignable_users: [{ id: 'ada', label: 'Ada Lovelace' }] }) })
    securedContext = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  }, 90_000)

  afterAll(async () => {
    await securedContext?.close()
    await secured?.stop()
  })

  it('asks for the API key on 401, keeps it in localStorage and sends it as X-Service-Token', async () => {
    const securedPage = await securedContext.newPage()
    const securedProblems = watchProblems(securedPage)
    const tokens: (string | undefined)[] = []
    securedPage.on('request', (request) => {
      if (request.url().includes('api=groups')) tokens.push(request.headers()['x-service-token'])
    })
    await securedPage.goto(secured.url)
    // Issue 17 item 13: one API-key screen instead of the shell (test/e2e/shell-dashboard.test.ts has the rest).
    const screen = securedPage.locator('.key-screen')
    await expect.poll(() => screen.textContent()).toContain('This Loupe server only answers requests that carry its API key.')
    await expect.poll(() => securedPage.evaluate(() => document.activeElement?.id)).toBe('api-key')
    await securedPage.screenshot({ path: join(SHOTS, 'dashboard-14-api-key.png') })
    await screen.locator('#api-key').fill(TOKEN)
    await screen.getByRole('button', { name: 'Save key' }).click()
    await expect.poll(() => securedPage.getByText('No issues yet', { exact: true }).count()).toBe(1)
    expect(await securedPage.getByTestId('metric-events').textContent()).toContain('0')
    expect(await securedPage.evaluate(() => localStorage.getItem('loupe.token'))).toBe(TOKEN)
    expect(tokens[0]).toBe(undefined)
    expect(tokens.at(-1)).toBe(TOKEN)
    await securedPage.screenshot({ path: join(SHOTS, 'dashboard-15-empty.png') })

    // Assignment appears only because this server configures assignable users.
    const created = await apiClient(secured.url, TOKEN).call('issues', { body: { title: 'Assign me', kind: 'task' } })
    await securedPage.goto(`${secured.url}/?issue=${created.data.id}`)
    const assignee = securedPage.getByTestId('inspector').locator('#inspector-assignee')
    await assignee.selectOption({ label: 'Ada Lovelace' })
    await expect.poll(async () => (await apiClient(secured.url, TOKEN).call('group', { query: { id: created.data.id } })).group.assigned_to_label).toBe('Ada Lovelace')
    await expect.poll(() => securedPage.getByTestId('inspector').locator('.facts').textContent()).toContain('Ada Lovelace')
    await securedPage.screenshot({ path: join(SHOTS, 'dashboard-16-assignee.png') })
    expect(securedProblems).toEqual([])
  })
})
