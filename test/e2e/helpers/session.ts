import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { ensureDashboardBuilt } from '../../../tools/build-dashboard.ts'
import { startWorker, type RunningWorker } from '../../../tools/worker-process.ts'
import { apiClient } from './api.ts'
import { launchChromium, watchProblems } from './browser.ts'

/** Where the dashboard tests leave their screenshots (looked at before calling a view done). */
export const SHOTS = join(new URL('../../../', import.meta.url).pathname, 'test-results')

export interface DashboardSession {
  readonly worker: RunningWorker
  readonly browser: Browser
  readonly context: BrowserContext
  readonly page: Page
  /** Page errors and console errors seen so far (see watchProblems). */
  readonly problems: string[]
  /** The API as a script calls it (no Origin header). */
  readonly api: ReturnType<typeof apiClient>['call']
  /** A fresh context + page at another size or colour scheme, watched the same way. */
  openPage(options?: PageOptions): Promise<{ context: BrowserContext; page: Page; problems: string[] }>
  close(): Promise<void>
}

export interface PageOptions {
  readonly viewport?: { width: number; height: number }
  readonly colorScheme?: 'light' | 'dark'
}

/**
 * One `wrangler dev` worker and one headless Chromium page against it — the setup every dashboard e2e file
 * shares. `vars` are the worker's environment (SERVICE_SECRET, SERVICE_CONFIG, …).
 */
export async function startDashboardSession(label: string, vars: Record<string, string> = {}, options: PageOptions = {}): Promise<DashboardSession> {
  mkdirSync(SHOTS, { recursive: true })
  await ensureDashboardBuilt()
  const [worker, browser] = await Promise.all([startWorker(vars, label), launchChromium()])
  const openPage = async (pageOptions: PageOptions = {}) => {
    const context = await browser.newContext({ viewport: pageOptions.viewport ?? { width: 1280, height: 900 }, colorScheme: pageOptions.colorScheme ?? 'light' })
    const page = await context.newPage()
    return { context, page, problems: watchProblems(page) }
  }
  const first = await openPage(options)
  return {
    worker,
    browser,
    ...first,
    api: apiClient(worker.url).call,
    openPage,
    async close() {
      await first.context.close().catch(() => {})
      await browser.close().catch(() => {})
      await worker.stop()
    },
  }
}
