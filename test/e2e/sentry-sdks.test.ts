import { execFile } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWorker, type RunningWorker } from '../../tools/worker-process.ts'
import { apiClient } from './helpers/api.ts'
import { launchChromium } from './helpers/browser.ts'

/**
 * Issue 12's proof with the real clients, against `wrangler dev`: `@sentry/node` in Node (a caught exception,
 * a message, an unhandled rejection) and `@sentry/browser` in Chromium (an uncaught error on a page of
 * another origin), each configured with nothing but the DSN from `?api=ingest-settings`; then the issues are
 * read back through the API with their title, class, culprit frame, release, environment, user, tags and
 * breadcrumbs.
 */
let worker: RunningWorker
let browser: Browser
let api: ReturnType<typeof apiClient>['call']
let dsn: string

interface Issue {
  readonly id: number
  readonly title: string
  readonly exception_class: string | null
  readonly source_frame: string | null
  readonly severity: string
  readonly environment: string
  readonly log_type: string
}

beforeAll(async () => {
  ;[worker, browser] = await Promise.all([startWorker({ SERVICE_SECRET: 'sentry-sdk-test-secret' }, 'sentry-sdks'), launchChromium()])
  api = apiClient(worker.url).call
  await api('plugins', { body: { id: 'http_ingest', enabled: true } })
  dsn = (await api<{ dsn: string }>('ingest-settings')).dsn
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await worker?.stop()
})

/** Polls the issue list until `match` finds its issue (the digest runs after the SDK's request is answered). */
async function issueMatching(q: string): Promise<Issue & { context: Record<string, any> }> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const list = await api<{ data: Issue[] }>('issues', { query: { q } })
    if (list.data.length === 1) {
      const detail = await api<{ data: { sample_context: string } }>('error', { query: { id: list.data[0]!.id } })
      return { ...list.data[0]!, context: JSON.parse(detail.data.sample_context) }
    }
    if (Date.now() > deadline) throw new Error(`no single issue for "${q}": ${JSON.stringify(list.data.map((issue) => issue.title))}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe('real Sentry SDKs report into Loupe with only the DSN', { timeout: 120_000 }, () => {
  it('gives a numeric-project DSN for this worker', () => {
    expect(dsn).toMatch(new RegExp(`^http://lpk_[0-9a-f]{48}@${worker.url.replace('http://', '').replace(/\./g, '\\.')}/\\d+$`))
  })

  it('@sentry/node: a caught exception, a message and an unhandled rejection', async () => {
    const client = fileURLToPath(new URL('./sentry/node-client.ts', import.meta.url))
    await promisify(execFile)('npx', ['tsx', client], { env: { ...process.env, LOUPE_DSN: dsn }, timeout: 60_000 })

    const coupon = await issueMatching('Coupon WINTER')
    expect(coupon).toMatchObject({ title: 'TypeError: Coupon WINTER has expired', exception_class: 'TypeError', severity: 'ERROR', environment: 'staging', log_type: 'sentry' })
    expect(coupon.source_frame).toMatch(/test\/e2e\/sentry\/node-client\.ts:\d+:\d+$/)
    expect(coupon.context).toMatchObject({ release: 'shop@3.1.0', server_name: 'api-2', user: { id: 'u-42', email: 'grace@example.com' }, tags: { region: 'eu-west' } })
    expect(coupon.context.breadcrumbs.map((crumb: { message?: string }) => crumb.message)).toContain('opened basket')

    const message = await issueMatching('Payment provider slow')
    expect(message).toMatchObject({ title: 'Payment provider slow to answer', severity: 'WARNING', exception_class: null })

    const rejection = await issueMatching('Refund worker crashed')
    // The SDK reports an unhandled rejection at level error (its mechanism is onunhandledrejection).
    expect(rejection).toMatchObject({ title: 'Error: Refund worker crashed', exception_class: 'Error', severity: 'ERROR' })
    expect(rejection.context.release).toBe('shop@3.1.0')
  })

  it('@sentry/browser: an uncaught error on a page of another origin', async () => {
    const bundle = await build({
      stdin: { contents: "import * as Sentry from '@sentry/browser'; globalThis.Sentry = Sentry", resolveDir: process.cwd() },
      bundle: true,
      format: 'iife',
      write: false,
      minify: true,
    })
    // The shop is another origin on this machine: a plain HTTP server on its own port (a public origin calling
    // a loopback one would be stopped by Chromium's private network access rules, which is not our subject).
    const html = `<!doctype html><title>Shop</title><script>${bundle.outputFiles[0]!.text}</script>
      <script>
        Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: 'web@7.0.0', environment: 'production' })
        Sentry.setUser({ id: 'visitor-9' })
        Sentry.setTag('page', 'checkout')
        Sentry.addBreadcrumb({ category: 'basket', message: 'basket shown' })
        function renderBasket() { null.items.length }
      </script>
      <button id="pay" onclick="renderBasket()">Pay</button>`
    const shop = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(html))
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve))
    const shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`
    const page = await browser.newPage()
    const logs: string[] = []
    page.on('console', (message) => logs.push(message.text()))
    await page.goto(`${shopUrl}/checkout`)
    await page.click('#pay')

    const issue = await issueMatching('reading \'items\'').catch((error: Error) => {
      throw new Error(`${error.message}; page console: ${logs.join(' | ')}`)
    })
    expect(issue).toMatchObject({ exception_class: 'TypeError', severity: 'ERROR', environment: 'production', log_type: 'sentry' })
    expect(issue.title).toBe("TypeError: Cannot read properties of null (reading 'items')")
    expect(issue.source_frame).toBe(`${shopUrl}/checkout:${issue.source_frame!.split(':').slice(-2).join(':')}`)
    expect(issue.context).toMatchObject({ release: 'web@7.0.0', user: { id: 'visitor-9' }, tags: { page: 'checkout' }, platform: 'javascript' })
    expect(issue.context.request.url).toBe(`${shopUrl}/checkout`)
    expect(issue.context.breadcrumbs.map((crumb: { message?: string }) => crumb.message)).toContain('basket shown')
    await page.close()
    shop.close()
  })
})

describe('the dashboard shows what the SDKs sent, and hands out the DSN', { timeout: 120_000 }, () => {
  it('shows release, user, request, tags, contexts and breadcrumbs of an ingested issue in the inspector', async () => {
    const coupon = await issueMatching('Coupon WINTER')
    const page = await browser.newPage()
    await page.goto(`${worker.url}/?issue=${coupon.id}`)
    const details = page.getByTestId('event-details')
    await details.waitFor()
    const text = await details.textContent()
    expect(text).toContain('shop@3.1.0')
    expect(text).toContain('id: u-42, email: grace@example.com')
    expect(text).toContain('api-2')
    expect(await page.locator('.kv-chip').allTextContents()).toContain('region eu-west')
    await page.locator('summary', { hasText: 'Breadcrumbs' }).click()
    expect(await page.getByTestId('breadcrumbs').textContent()).toContain('opened basket')
    await page.close()
  })

  it('Settings → Ingest: DSN, masked key, snippets, and a regenerate that asks first', async () => {
    const page = await browser.newPage()
    await page.goto(`${worker.url}/?view=settings&tab=ingest`)
    const panel = page.getByTestId('ingest-panel')
    await panel.waitFor()
    const { key } = await api<{ key: string }>('ingest-settings')
    expect(await panel.textContent()).toContain(dsn)
    expect(await page.getByTestId('ingest-key').textContent()).not.toContain(key)
    await panel.getByRole('button', { name: 'Reveal' }).click()
    expect(await page.getByTestId('ingest-key').textContent()).toBe(key)
    expect(await panel.locator('.snippet pre').allTextContents()).toEqual([
      expect.stringContaining(`Sentry.init({ dsn: '${dsn}'`),
      expect.stringContaining(`Sentry.init({ dsn: '${dsn}'`),
      expect.stringContaining(`X-Loupe-Ingest-Key: ${key}`),
    ])
    await panel.getByRole('button', { name: 'Regenerate key…' }).click()
    await panel.getByRole('button', { name: 'Cancel' }).click()
    expect((await api<{ key: string }>('ingest-settings')).key).toBe(key)
    await panel.getByRole('button', { name: 'Regenerate key…' }).click()
    await panel.getByRole('button', { name: 'Regenerate key', exact: true }).click()
    await expect.poll(async () => (await api<{ key: string }>('ingest-settings')).key).not.toBe(key)
    const fresh = (await api<{ key: string }>('ingest-settings')).key
    await expect.poll(() => page.getByTestId('ingest-key').textContent()).toBe(fresh)
    // The old DSN no longer reports.
    const stale = await fetch(`${worker.url}/api/${new URL(dsn).pathname.slice(1)}/store/?sentry_key=${key}`, { method: 'POST', body: '{"message":"old key"}' })
    expect(stale.status).toBe(401)
    await page.close()
  })
})

