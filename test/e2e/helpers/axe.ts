import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export interface AxeFinding {
  readonly id: string
  readonly impact: string
  readonly help: string
  /** CSS selectors of the offending nodes (first few), so a failure says where. */
  readonly targets: string[]
  /** How many nodes fail the rule (all of them, not just the `targets` listed). */
  readonly nodes: number
}

/**
 * Runs axe-core (the real engine, injected into the page) over the page as it is now and returns the
 * serious and critical violations — issue 17 asks for none on every page and dialog, light and dark.
 * Pass `include` to scan only part of the page (an open dialog).
 */
export async function seriousViolations(page: Page, include?: string): Promise<AxeFinding[]> {
  // Evaluated through the DevTools protocol: the dashboard's CSP (script-src 'self') refuses an inline <script>.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE)
  const violations = await page.evaluate(async (selector) => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe
    const result = await axe.run(selector ? { include: [selector] } : document, { resultTypes: ['violations'] })
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
      nodes: violation.nodes.length,
    }))
  }, include ?? null)
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
}
