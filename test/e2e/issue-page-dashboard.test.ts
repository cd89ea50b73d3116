/**
 * The issue page in a real headless Chromium against `wrangler dev` (issue 17 items 5–7 and 12): the order
 * (head, actions, stack, occurrences, breakdown), the stack view (folded vendor frames, the culprit, copy),
 * occurrences paged with "Show more", the archived log lines around an event, the value breakdown, focus kept
 * on the status and tag controls, axe (no serious violation, light and dark), screenshots at 390×844 and
 * 1440×900.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from './helpers/axe.ts'
import { SHOTS, startDashboardSession, type DashboardSession } from './helpers/session.ts'

let session: DashboardSession
let worker: DashboardSession['worker']
let page: Page
let problems: string[]
let api: DashboardSession['api']
let issue: { id: number; source_frame: string | null; sample_stack: string }

const EVENTS = 105

/** A Laravel exception as Monolog writes it: the stack inside the JSON context, with raw line breaks. */
function laravelEvent(n: number): string {
  const time = `2026-03-0${1 + Math.floor(n / 60)} 10:${String(n % 60).padStart(2, '0')}:00`
  return (
    `[${time}] production.ERROR: Checkout failed {"userId":${n % 3},"url":"${n % 5 === 0 ? '/cart' : '/checkout'}","ip":"10.0.0.${n % 2}","exception":"[object] (RuntimeException(code: 0): Checkout failed at /app/app/Services/Checkout.php:42)\n` +
    '[stacktrace]\n' +
    '#0 /app/app/Services/Checkout.php(42): App\\\\Services\\\\Payment->charge()\n' +
    '#1 /app/app/Http/Controllers/CheckoutController.php(31): App\\\\Services\\\\Checkout->run()\n' +
    '#2 /app/vendor/laravel/framework/src/Illuminate/Routing/Controller.php(54): App\\\\Http\\\\Controllers\\\\CheckoutController->store()\n' +
    '#3 /app/vendor/laravel/framework/src/Illuminate/Routing/ControllerDispatcher.php(43): Illuminate\\\\Routing\\\\Controller->callAction()\n' +
    '#4 /app/vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php(144): Illuminate\\\\Routing\\\\ControllerDispatcher->dispatch()\n' +
    '#5 {main}\n' +
    '"}\n' +
    `[${time}] production.INFO: Request finished in ${n} ms\n`
  )
}

beforeAll(async () => {
  session = await startDashboardSession('issue-page-dashboard', {}, { viewport: { width: 1440, height: 900 } })
  ;({ worker, page, problems, api } = session)
  await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: worker.url })
  let log = ''
  for (let n = 0; n < EVENTS; n++) log += laravelEvent(n)
  await api('import-incoming', { query: { file: 'shop/laravel.log' }, raw: log })
  await api('tags', { body: { name: 'payments', color: '#2563eb', icon: 'tag', match_word: '' } })
  await api('plugins', { body: { id: 'releases', enabled: true } })
  await api('release-settings', { method: 'PUT', body: { repo_url_template: 'https://github.com/acme/shop/blob/{ref}/{path}#L{line}', default_ref: 'v3' } })
  const list = await api<{ data: { id: number }[] }>('issues', { query: { q: 'Checkout failed' } })
  expect(list.data).toHaveLength(1)
  const detail = await api<{ group: { id: number; source_frame: string | null; sample_stack: string }; meta: { total_occurrences: number } }>('group', { query: { id: list.data[0]!.id, limit: 1 } })
  expect(detail.meta.total_occurrences).toBe(EVENTS)
  issue = detail.group
}, 120_000)

afterAll(async () => {
  await session?.close()
})

const inspector = () => page.getByTestId('inspector')

async function openIssue(target: Page = page): Promise<void> {
  await target.goto(`${worker.url}/?issue=${issue.id}`)
  await target.getByTestId('inspector').getByTestId('stack').waitFor()
}

describe('the issue page', { timeout: 90_000 }, () => {
  it('orders head, actions, stack, occurrences and breakdown, and keeps the message from repeating the raw event', async () => {
    await openIssue()
    const order = await inspector().locator('.inspector-body').evaluate((body) =>
      Array.from(body.children).map((child) => child.getAttribute('data-testid') ?? child.querySelector(':scope > summary h3')?.firstChild?.textContent ?? child.tagName),
    )
    expect(order.slice(0, 5)).toEqual(['issue-head', 'issue-actions', 'Stack', 'Occurrences', 'Breakdown'])
    await page.screenshot({ path: join(SHOTS, 'issue-page-00-head-1440.png') })
    const head = await inspector().getByTestId('issue-head').textContent()
    for (const text of ['RuntimeException', 'Checkout.php', String(EVENTS), 'First seen', 'Last seen']) expect(head).toContain(text)
    expect(await inspector().getByTestId('issue-head').locator('.timeline').count()).toBe(1)
    // The message is the title here: no Message section repeating the event's stack and context.
    expect(await inspector().locator('.inspector-section', { hasText: 'Message' }).count()).toBe(0)
  })

  it('shows the stack as frames: vendor frames folded, the culprit highlighted, no escapes or stray "}, copy works', async () => {
    await openIssue()
    const stack = inspector().getByTestId('stack')
    const fold = stack.locator('details.vendor-frames')
    expect(await fold.count()).toBe(1)
    expect(await fold.getAttribute('open')).toBe(null)
    // Three framework frames and `{main}`.
    expect(await fold.locator('summary').textContent()).toBe('4 vendor frames')
    expect(await stack.locator('.stack-frame.app').count()).toBeGreaterThanOrEqual(2)
    const culprit = stack.locator('[data-culprit="true"]')
    expect(await culprit.count()).toBe(1)
    expect(issue.source_frame).not.toBeNull()
    expect(await culprit.textContent()).toContain(issue.source_frame!.replace(/:\d+$/, ''))
    const text = (await stack.textContent()) ?? ''
    expect(text).not.toContain('\\\\')
    expect(await stack.locator('li').evaluateAll((items) => items.filter((item) => /^["}\]]+$/.test(item.textContent?.trim() ?? '')).length)).toBe(0)
    // Application frames link to the code host (releases plugin template); vendor frames do not.
    await expect.poll(() => culprit.locator('a.frame-link').getAttribute('href')).toBe('https://github.com/acme/shop/blob/v3/app/app/Services/Checkout.php#L42')
    expect(await fold.locator('a.frame-link').count()).toBe(0)
    await fold.locator('summary').click()
    expect(await fold.locator('.stack-frame.vendor').count()).toBe(4)
    await stack.getByTestId('copy-stack').click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(issue.sample_stack)
  })

  it('pages occurrences with "Show more" and shows the archived lines around one', async () => {
    await openIssue()
    const count = inspector().getByTestId('occurrence-count')
    await expect.poll(() => count.textContent()).toBe(`Showing 100 of ${EVENTS}, newest first.`)
    await inspector().getByTestId('more-occurrences').click()
    await expect.poll(() => count.textContent()).toBe(`Showing ${EVENTS} of ${EVENTS}, newest first.`)
    expect(await inspector().locator('.occurrence').count()).toBe(EVENTS)
    expect(await inspector().getByTestId('more-occurrences').count()).toBe(0)
    // The newest occurrence is the last event of the file: the INFO line after it, then the end of the file.
    const first = inspector().locator('.occurrence').first()
    await first.getByRole('button', { name: 'Context' }).click()
    const context = first.getByTestId('event-context')
    await context.waitFor()
    const marked = await context.locator('mark.event-line').allTextContents()
    expect(marked[0]).toContain('production.ERROR: Checkout failed')
    expect(marked.some((line) => line.startsWith('#1 /app/app/Http/Controllers/CheckoutController.php(31)'))).toBe(true)
    expect(await context.locator('span.context-line').last().textContent()).toContain(`Request finished in ${EVENTS - 1} ms`)
    expect(await context.locator('.context-edge').allTextContents()).toEqual(['— end of file —'])
    expect((await context.locator('span.context-line').first().textContent())?.length).toBeGreaterThan(0)
    await page.screenshot({ path: join(SHOTS, 'issue-page-01-1440.png'), fullPage: true })
  })

  it('shows the value breakdown with counts and shares', async () => {
    await openIssue()
    const breakdown = inspector().getByTestId('value-breakdown')
    await breakdown.waitFor()
    const row = (key: string, value: string) => breakdown.locator(`section[aria-label="${key}"] [data-value="${value}"]`)
    expect(await row('URL', '/checkout').textContent()).toContain('84 (80%)')
    expect(await row('URL', '/cart').textContent()).toContain('21 (20%)')
    expect(await row('User', '0').textContent()).toContain('35 (33%)')
    expect(await row('Environment', 'production').textContent()).toContain(`${EVENTS} (100%)`)
    expect(await breakdown.locator('section').evaluateAll((sections) => sections.map((section) => section.getAttribute('aria-label')))).toEqual(['URL', 'User', 'IP', 'Environment'])
    await breakdown.scrollIntoViewIfNeeded()
    await inspector().screenshot({ path: join(SHOTS, 'issue-page-03-breakdown.png') })
  })

  it('keeps focus on the control after a status or tag change', async () => {
    await openIssue()
    await inspector().locator('#inspector-status').selectOption('in_progress')
    const submit = inspector().getByRole('button', { name: 'Set to In progress' })
    await submit.focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => inspector().getByTestId('status-history').textContent()).toContain('In progress')
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.status-form') !== null)).toBe(true)
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('BUTTON')
    await inspector().locator('.issue-tags > summary').click()
    const toggle = inspector().getByRole('button', { name: 'payments' })
    await toggle.focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true')
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toContain('payments')
    await page.keyboard.press('Enter')
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false')
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toContain('payments')
  })

  it('has no serious axe violation in light and dark, and fits 390×844', async () => {
    for (const [scheme, viewport] of [['light', { width: 1440, height: 900 }], ['dark', { width: 1440, height: 900 }], ['light', { width: 390, height: 844 }]] as const) {
      // axe is injected as an inline script, which the dashboard's strict CSP refuses: this context bypasses it.
      const context = await session.browser.newContext({ colorScheme: scheme, viewport, bypassCSP: true })
      const opened = { context, page: await context.newPage(), problems: [] as string[] }
      opened.page.on('pageerror', (error) => opened.problems.push(`pageerror: ${error.message}`))
      try {
        await openIssue(opened.page)
        const body = opened.page.getByTestId('inspector')
        await body.getByTestId('value-breakdown').waitFor()
        await body.locator('.occurrence').first().getByRole('button', { name: 'Context' }).click()
        await body.getByTestId('event-context').waitFor()
        await body.locator('details.vendor-frames > summary').click()
        // The issue page itself (the list beside it is the list's own test's business).
        expect(await seriousViolations(opened.page, '[data-testid="inspector"]'), `${scheme} ${viewport.width}`).toEqual([])
        await opened.page.screenshot({ path: join(SHOTS, `issue-page-02-${scheme}-${viewport.width}x${viewport.height}.png`), fullPage: viewport.width < 500 })
        if (viewport.width < 500) {
          // The issue page fits the phone's width: nothing in it scrolls sideways (the log lines scroll in their own box).
          const box = await body.evaluate((element) => ({ width: element.getBoundingClientRect().width, scroll: element.scrollWidth, client: element.clientWidth }))
          expect(box.width).toBeLessThanOrEqual(390)
          expect(box.scroll).toBeLessThanOrEqual(box.client)
        }
        expect(opened.problems).toEqual([])
      } finally {
        await opened.context.close()
      }
    }
    expect(problems).toEqual([])
  })
})
