/**
 * The axe-core helper itself (test/e2e/helpers/axe.ts) against the real dashboard under its real
 * Content-Security-Policy: it must scan (not be refused like an inline script) and must report a serious
 * violation when there is one, so an empty result elsewhere means something.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from './helpers/axe.ts'
import { startDashboardSession, type DashboardSession } from './helpers/session.ts'

let session: DashboardSession

beforeAll(async () => {
  session = await startDashboardSession('axe-helper')
}, 120_000)

afterAll(async () => {
  await session?.close()
})

describe('seriousViolations', { timeout: 60_000 }, () => {
  it('runs under the dashboard CSP and finds a planted contrast failure', async () => {
    const { page, worker } = session
    await page.goto(`${worker.url}/`)
    await page.locator('main').first().waitFor()
    // Light grey on white, 1.1:1 — axe's color-contrast rule rates that serious.
    await page.evaluate(() => {
      document.body.insertAdjacentHTML('beforeend', '<p id="axe-probe" style="color:#f4f4f4;background:#ffffff;font-size:12px">Barely visible text</p>')
    })
    const findings = await seriousViolations(page, '#axe-probe')
    expect(findings.map((finding) => [finding.id, finding.impact, finding.targets])).toEqual([['color-contrast', 'serious', ['#axe-probe']]])
    expect(session.problems).toEqual([])
  })
})
