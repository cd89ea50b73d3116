import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWorker, type RunningWorker } from '../../tools/worker-process.ts'
import { apiClient } from './helpers/api.ts'
import { launchChromium } from './helpers/browser.ts'

/**
 * Issue 14's proof with the real tools, against `wrangler dev`: an esbuild bundle with source maps, its maps
 * uploaded by the real `sentry-cli` 3.8.0 binary (`releases new`, `sourcemaps upload --release`, `releases
 * finalize`; SENTRY_URL = the worker, the service token, the project naming the application), an error thrown
 * from the bundle in Chromium through `@sentry/browser`, and the stored frames read back through `?api=error`:
 * they point at the original source lines.
 */
const TOKEN = 'sentry-cli-test-token'
const RELEASE = 'shop@2.0.0'
const CHECKOUT = [
  'export function applyCoupon(basket: { total: number }, code: string): number {',
  '  if (code.startsWith("OLD")) {',
  '    throw new RangeError(`Coupon ${code} has expired`)',
  '  }',
  '  return basket.total',
  '}',
  '',
].join('\n')
const MAIN = ["import { applyCoupon } from './checkout'", 'export function pay(code: string) {', '  return applyCoupon({ total: 20 }, code)', '}', ''].join('\n')

let worker: RunningWorker
let browser: Browser
let api: ReturnType<typeof apiClient>['call']
let app: string
let dist: string

beforeAll(async () => {
  ;[worker, browser] = await Promise.all([startWorker({ SERVICE_SECRET: 'sentry-cli-test-secret', SERVICE_TOKEN: TOKEN }, 'sentry-cli'), launchChromium()])
  api = apiClient(worker.url, TOKEN).call
  for (const id of ['http_ingest', 'releases']) await api('plugins', { body: { id, enabled: true } })
  app = (await api<{ data: { id: string }[] }>('applications')).data[0]!.id
  const dir = mkdtempSync(join(tmpdir(), 'loupe-cli-'))
  mkdirSync(join(dir, 'src'))
  writeFileSync(join(dir, 'src', 'checkout.ts'), CHECKOUT)
  writeFileSync(join(dir, 'src', 'main.ts'), MAIN)
  dist = join(dir, 'dist', 'assets')
  await build({ entryPoints: [join(dir, 'src', 'main.ts')], bundle: true, minify: true, format: 'iife', globalName: 'shop', sourcemap: 'linked', sourcesContent: true, outfile: join(dist, 'app-3f9a.js'), logLevel: 'silent' })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await worker?.stop()
})

async function sentryCli(...args: string[]): Promise<string> {
  const env = { ...process.env, SENTRY_URL: worker.url, SENTRY_AUTH_TOKEN: TOKEN, SENTRY_ORG: 'loupe', SENTRY_PROJECT: app, SENTRY_HTTP_MAX_RETRIES: '0', SENTRY_LOAD_DOTENV: '0' }
  const { stdout, stderr } = await promisify(execFile)('node_modules/.bin/sentry-cli', args, { env, timeout: 60_000 })
  return `${stdout}${stderr}`
}

describe('sentry-cli uploads source maps that resolve browser errors', { timeout: 120_000 }, () => {
  it('creates, uploads to and finalizes a release', async () => {
    expect(await sentryCli('releases', 'new', RELEASE)).toContain(RELEASE)
    const upload = await sentryCli('sourcemaps', 'upload', '--release', RELEASE, '--url-prefix', '~/assets', dist)
    expect(upload).toMatch(/File processing complete|Nothing to upload/)
    expect(await sentryCli('releases', 'finalize', RELEASE)).toContain(RELEASE)
    const maps = await api<{ data: { release: string; file: string; size: number }[] }>('source-maps')
    expect(maps.data).toEqual([expect.objectContaining({ release: RELEASE, file: 'app-3f9a.js' })])
    expect(maps.data[0]!.size).toBeGreaterThan(100)
    // A wrong token is refused, and sentry-cli says so.
    await expect(promisify(execFile)('node_modules/.bin/sentry-cli', ['releases', 'new', 'x@1'], { env: { ...process.env, SENTRY_URL: worker.url, SENTRY_AUTH_TOKEN: 'wrong', SENTRY_ORG: 'loupe', SENTRY_PROJECT: app, SENTRY_HTTP_MAX_RETRIES: '0' } })).rejects.toThrow(/API key|401/)
  })

  it('resolves the frames of an error thrown from the bundle in Chromium to the original source', async () => {
    const { dsn } = await api<{ dsn: string }>('ingest-settings')
    const sdk = await build({ stdin: { contents: "import * as Sentry from '@sentry/browser'; globalThis.Sentry = Sentry", resolveDir: process.cwd() }, bundle: true, format: 'iife', write: false, minify: true })
    const html = `<!doctype html><title>Shop</title><script>${sdk.outputFiles[0]!.text}</script>
      <script>Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: ${JSON.stringify(RELEASE)} })</script>
      <script src="/assets/app-3f9a.js"></script>
      <button id="pay" onclick="shop.pay('OLD10')">Pay</button>`
    const script = readFileSync(join(dist, 'app-3f9a.js'))
    const shop = createServer((request, response) => {
      if (request.url === '/assets/app-3f9a.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
      else response.writeHead(200, { 'content-type': 'text/html' }).end(html)
    })
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve))
    const page = await browser.newPage()
    await page.goto(`http://127.0.0.1:${(shop.address() as AddressInfo).port}/checkout`)
    await page.click('#pay')

    const deadline = Date.now() + 20_000
    let issues: { id: number; source_frame: string }[] = []
    while (issues.length === 0 && Date.now() < deadline) {
      issues = (await api<{ data: { id: number; source_frame: string }[] }>('issues', { query: { q: 'has expired' } })).data
      if (issues.length === 0) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(issues).toHaveLength(1)
    const detail = await api<{ data: { source_frame: string; sample_stack: string; sample_context: string } }>('error', { query: { id: issues[0]!.id } })
    expect(detail.data.source_frame).toBe('src/checkout.ts:3:11')
    const stack = detail.data.sample_stack.split('\n')
    expect(stack[0]).toBe('    at applyCoupon (src/checkout.ts:3:11)')
    expect(stack[1]).toMatch(/^ {4}at \S+ \(src\/main\.ts:3:10\)$/)
    expect(JSON.parse(detail.data.sample_context).culprit_source).toMatchObject({ line: '    throw new RangeError(`Coupon ${code} has expired`)', at: 'src/checkout.ts:3:11' })
    await page.close()
    shop.close()
  })
})
