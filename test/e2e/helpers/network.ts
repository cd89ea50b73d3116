import type { Page, Request } from 'playwright-core'

export interface NetworkWatch {
  /**
   * Resolves once no request of the page has been open for `quietMs`; after `timeoutMs` it fails naming the
   * requests still open, so a hung request says which one it is.
   */
  quiet(timeoutMs?: number, quietMs?: number): Promise<void>
}

/**
 * Watches a page's requests from now on. Playwright's `waitForLoadState('networkidle')` waits at most the
 * navigation timeout (30 s) and, when it gives up, says nothing about what kept the network busy: on a loaded
 * CI machine (four API legs beside the dashboard leg) one such wait timed out in the accessibility scan with
 * no clue. This waits longer (60 s by default) and names the open requests when it fails.
 */
export function watchNetwork(page: Page): NetworkWatch {
  const open = new Set<Request>()
  page.on('request', (request) => open.add(request))
  page.on('requestfinished', (request) => open.delete(request))
  page.on('requestfailed', (request) => open.delete(request))
  return {
    async quiet(timeoutMs = 60_000, quietMs = 500) {
      const deadline = Date.now() + timeoutMs
      let quietSince = Date.now()
      while (Date.now() < deadline) {
        if (open.size > 0) quietSince = Date.now()
        else if (Date.now() - quietSince >= quietMs) return
        await page.waitForTimeout(50)
      }
      const names = [...open].map((request) => `${request.method()} ${request.url()}`)
      throw new Error(`requests still open after ${timeoutMs} ms: ${names.join(', ')}`)
    },
  }
}
