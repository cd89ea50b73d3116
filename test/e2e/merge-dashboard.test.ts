/**
 * The bulk bar's "Merge…" (issue 17 item 8) in a real headless Chromium against `wrangler dev`: select two
 * imported issues, open the dialog (the one with most events is the default target), pick the other one as
 * the target, merge — a toast, the list shows one issue with the summed count, the selection is gone. The
 * dialog is scanned with axe-core in light and dark at 1024×768 and 390×844; screenshots in test-results/.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from './helpers/axe.ts'
import { SHOTS, startDashboardSession, type DashboardSession } from './helpers/session.ts'

let session: DashboardSession
let worker: DashboardSession['worker']
let api: DashboardSession['api']

const LOG = [
  '[2026-05-01 10:00:00] production.ERROR: Cache node timeout while reading sessions',
  '[2026-05-01 10:05:00] production.ERROR: Cache node timeout while reading sessions',
  '[2026-05-01 10:10:00] production.ERROR: Cache node timeout while reading sessions',
  '[2026-05-02 09:00:00] production.ERROR: Session store unreachable',
  '[2026-05-02 09:30:00] production.ERROR: Session store unreachable',
  '[2026-05-03 08:00:00] production.WARNING: Unrelated slow request',
  '',
].join('\n')

const row = (page: Page, text: string) => page.locator('tr.issue-row', { hasText: text })

async function openMergeDialog(page: Page) {
  await page.goto(`${worker.url}/?view=issues`)
  for (const title of ['Cache node timeout', 'Session store unreachable']) {
    // A phone shows cards, selected through each card's actions menu; wider screens tick the row's box.
    if ((page.viewportSize()?.width ?? 1280) <= 640) {
      await row(page, title).getByRole('button', { name: /^Actions for / }).click()
      await row(page, title).getByRole('menuitem', { name: 'Select' }).click()
    } else await row(page, title).locator('input[type=checkbox]').check()
  }
  const bar = page.getByTestId('bulk-bar')
  await bar.getByRole('button', { name: 'Merge…' }).click()
  const dialog = page.locator('dialog[open]')
  await dialog.waitFor()
  return dialog
}

beforeAll(async () => {
  session = await startDashboardSession('merge-dashboard', { SERVICE_SECRET: 'merge-dashboard-secret' }, { viewport: { width: 1440, height: 900 } })
  ;({ worker, api } = session)
  await api('import-incoming', { query: { file: 'web/laravel.log' }, raw: LOG })
}, 120_000)

afterAll(async () => {
  await session?.close()
})

describe('Merge issues from the bulk bar', { timeout: 90_000 }, () => {
  it('has no serious accessibility violations in the dialog, light and dark, on a tablet and a phone', async () => {
    for (const [colorScheme, viewport] of [
      ['light', { width: 1024, height: 768 }],
      ['dark', { width: 1024, height: 768 }],
      ['dark', { width: 390, height: 844 }],
      ['light', { width: 390, height: 844 }],
    ] as const) {
      const { context, page, problems } = await session.openPage({ colorScheme, viewport })
      const dialog = await openMergeDialog(page)
      // The default target is the issue with most events.
      expect(await dialog.getByRole('radio', { name: /Cache node timeout/ }).isChecked()).toBe(true)
      expect(await seriousViolations(page, 'dialog[open]')).toEqual([])
      await page.screenshot({ path: join(SHOTS, `merge-dialog-${colorScheme}-${viewport.width}.png`) })
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0)
      expect(problems).toEqual([])
      await context.close()
    }
  })

  it('is offered only for two or more selected issues', async () => {
    const { page } = session
    await page.goto(`${worker.url}/?view=issues`)
    await row(page, 'Cache node timeout').locator('input[type=checkbox]').check()
    const bar = page.getByTestId('bulk-bar')
    expect(await bar.textContent()).toContain('1 issue selected')
    expect(await bar.getByRole('button', { name: 'Merge…' }).count()).toBe(0)
    await row(page, 'Cache node timeout').locator('input[type=checkbox]').uncheck()
  })

  it('merges two selected issues into the picked target: one issue with the summed count, the selection cleared', async () => {
    const { page, problems } = session
    const before = (await api('groups')).items as { id: number; title: string; count: number }[]
    const session_ = before.find((issue) => issue.title === 'Session store unreachable')!
    const dialog = await openMergeDialog(page)
    await dialog.getByRole('radio', { name: /Session store unreachable/ }).check()
    expect(await dialog.getByRole('button', { name: `Merge into #${session_.id}` }).count()).toBe(1)
    await page.screenshot({ path: join(SHOTS, 'merge-dialog-1440.png') })
    await dialog.getByRole('button', { name: `Merge into #${session_.id}` }).click()

    await expect.poll(() => page.locator('.toast').allTextContents()).toContainEqual(expect.stringContaining(`Merged 1 issue into #${session_.id} (5 events)`))
    await expect.poll(() => page.locator('dialog[open]').count()).toBe(0)
    await expect.poll(() => row(page, 'Cache node timeout').count()).toBe(0)
    await expect.poll(() => page.getByTestId('bulk-bar').count()).toBe(0)
    expect(await row(page, 'Session store unreachable').count()).toBe(1)
    expect(await row(page, 'Session store unreachable').locator('.col-count').textContent()).toBe('5 events')
    const after = (await api('groups')).items as { id: number; title: string; count: number }[]
    expect(after.map((issue) => [issue.title, issue.count])).toEqual([
      ['Session store unreachable', 5],
      ['Unrelated slow request', 1],
    ])
    await page.screenshot({ path: join(SHOTS, 'merge-done.png') })
    expect(problems).toEqual([])
  })
})
