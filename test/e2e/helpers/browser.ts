import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core'
import { CHROMIUM_PATH } from '../../../tools/chromium.ts'

/** Debian's Chromium, headless, with everything that would call home switched off. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}

/**
 * Collects what must never happen: uncaught page errors, console errors and CSP violations (Chromium reports
 * those as console errors). Failed API calls the test provokes on purpose (401, 422) are the only allowed
 * console noise: Chromium logs every non-2xx fetch.
 */
export function watchProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return
    const text = message.text()
    if (/Failed to load resource: the server responded with a status of (401|422)/.test(text)) return
    problems.push(`console.${message.type()}: ${text}`)
  })
  return problems
}
