/**
 * Settings → Logs lists the files set aside after repeated import failures (issue 10 defect 3) and retries
 * one, in Chromium against the real worker. The failure state is what three failed attempts leave behind (the
 * API parity suite produces it with an injected database fault: test/api/ingestion-failures.test.ts); here
 * it is written into the local D1 with `wrangler d1 execute`, because no file fails on a healthy local D1.
 */
import { execFileSync } from 'node:child_process'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureDashboardBuilt } from '../../tools/build-dashboard.ts'
import { startWorker, type RunningWorker } from '../../tools/worker-process.ts'
import { QUIET_WRANGLER_ENV } from '../../tools/wrangler-env.ts'
import { apiClient } from './helpers/api.ts'
import { launchChromium, watchProblems } from './helpers/browser.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const ERROR = 'The database refused the events of this file; the details are in the server log.'

let worker: RunningWorker
let browser: Browser
let page: Page
let problems: string[]
let api: ReturnType<typeof apiClient>['call']

/** Runs SQL against the worker's local D1 (a second process on the same persisted database). */
function sql(command: string): void {
  execFileSync('npx', ['wrangler', 'd1', 'execute', 'DB', '--local', '--persist-to', worker.stateDir, '--command', command], {
    cwd: ROOT,
    env: { ...process.env, ...QUIET_WRANGLER_ENV },
    stdio: 'pipe',
  })
}

beforeAll(async () => {
  await ensureDashboardBuilt()
  ;[worker, browser] = await Promise.all([startWorker({}, 'e2e-failed'), launchChromium()])
  api = apiClient(worker.url).call
  await api('import-incoming', { query: { file: 'billing/stuck.log' }, raw: '[2026-03-01 10:00:00] production.ERROR: Ledger export stalled\n' })
  const prefix = (await api('applications')).data.find((app: { id: string }) => app.id === 'default').table_prefix
  // Three failed attempts left the file unread and set aside.
  sql(`UPDATE ${prefix}file_imports SET next_offset = 0 WHERE origin_path = 'billing/stuck.log';
    INSERT INTO ${prefix}import_failures (ref, source_file_id, path, etag, attempts, error, failed_at, updated_at)
    SELECT 'file:' || source_file_id, source_file_id, origin_path, NULL, 3, '${ERROR}', '2026-03-01 10:05:00', '2026-03-01 10:05:00'
    FROM ${prefix}file_imports WHERE origin_path = 'billing/stuck.log'`)
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
  problems = watchProblems(page)
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await worker?.stop()
})

describe('files set aside, in Settings → Logs', { timeout: 30_000 }, () => {
  it('lists a set-aside file with its error and attempts, and retries it', async () => {
    expect((await api('import-incoming')).failed).toMatchObject([{ path: 'billing/stuck.log', attempts: 3, error: ERROR }])
    await page.goto(`${worker.url}/?view=settings&tab=logs`)
    const panel = page.getByTestId('failed-imports')
    await expect.poll(() => panel.locator('.failed-import').count()).toBe(1)
    const item = panel.locator('.failed-import')
    expect(await item.locator('strong').textContent()).toBe('billing/stuck.log')
    expect(await item.textContent()).toContain('3 attempts, set aside')
    expect(await item.locator('.field-error').textContent()).toBe(ERROR)
    await page.screenshot({ path: `${ROOT}test-results/failed-imports.png` })

    await page.getByRole('button', { name: 'Retry billing/stuck.log' }).click()
    await expect.poll(() => page.locator('.toast').first().textContent()).toContain('Retried billing/stuck.log')
    await expect.poll(() => panel.count()).toBe(0) // nothing set aside any more: the panel is gone
    expect((await api('import-incoming')).failed).toEqual([])
    expect((await api('import-incoming')).pending).toEqual({ files: 0, bytes: 0 })
    expect(problems).toEqual([])
  })
})
