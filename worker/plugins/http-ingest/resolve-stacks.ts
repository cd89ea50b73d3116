import type { AppScope } from '../../apps/app-scope.ts'
import type { HookServices, Plugin } from '../plugin.ts'
import { isPluginEnabled, type PluginSettings } from '../plugin-settings.ts'
import { runPluginHook } from '../run-plugin-hook.ts'
import type { StagedEvent } from './staged-events.ts'

/** The frame location of a stack line (`file:line:col` or `file:line`), as the analyser and Sentry's culprit write it. */
const LOCATION = /\(([^()\s]+:\d+(?::\d+)?)\)\s*$|^\s*at ([^\s()]+:\d+(?::\d+)?)\s*$|@([^\s@()]+:\d+(?::\d+)?)\s*$/

/**
 * Runs the plugins' `resolveStack` hook (reference §4.1, the first non-null result wins) over the stacks of
 * a digest batch's events, before they are analysed and grouped — so the grouping sees the original frames and
 * two builds of the same bug are one issue (issue 14). Only events that carry a stack are offered. A resolved
 * stack replaces the event's; Sentry's culprit frame moves to its resolved line, and that frame's source
 * lines (from the map's `sourcesContent`) become the context's `culprit_source`. `memo` is shared by the batch's
 * calls. Costs no query by itself: the settings come from the batch's pending read. A resolver whose hook
 * threw is skipped for the rest of the batch, and a cleared failure is cleared once — one settings write per
 * batch at most, never one per event.
 */
export async function resolveStagedStacks(
  run: { readonly scope: AppScope; readonly plugins: readonly Plugin[]; readonly services: HookServices },
  staged: readonly StagedEvent[],
  settings: PluginSettings,
  now: Date,
): Promise<StagedEvent[]> {
  const memo = new Map<string, unknown>()
  const enabled = new Map(settings.enabled)
  const failures = new Map(settings.failures)
  const local: PluginSettings = { enabled, failures }
  const resolvers = run.plugins.filter((plugin) => plugin.status === 'active' && plugin.hooks?.resolveStack)
  const out: StagedEvent[] = []
  for (const s of staged) {
    const stack = s.event.stack
    if (stack === null) {
      out.push(s)
      continue
    }
    const results = await runPluginHook({
      plugins: run.plugins,
      scope: run.scope,
      hook: 'resolveStack',
      now,
      settings: local,
      firstResult: true,
      call: (hooks) => hooks.resolveStack?.({ scope: run.scope, now, stack, release: s.event.release, services: run.services, memo }),
    })
    for (const plugin of resolvers) {
      if (!isPluginEnabled(plugin, local)) continue
      if (!results.has(plugin.id)) {
        enabled.set(plugin.id, false)
        continue
      }
      failures.delete(plugin.id)
      if (results.get(plugin.id)) break
    }
    const resolved = [...results.values()].find((result) => result !== null && result !== undefined)
    if (!resolved) {
      out.push(s)
      continue
    }
    const before = stack.split('\n')
    const after = resolved.stack.split('\n')
    const culpritIndex = s.event.culprit === null ? -1 : before.findIndex((line) => locationOf(line) === s.event.culprit)
    const culpritLine = culpritIndex === -1 ? undefined : after[culpritIndex]
    const culprit = culpritLine === undefined ? s.event.culprit : (locationOf(culpritLine) ?? s.event.culprit)
    const source = culpritIndex !== -1 ? resolved.sources.get(culpritIndex) : resolved.sources.get(Math.min(...resolved.sources.keys()))
    const context = source ? { ...(s.event.context ?? {}), culprit_source: source } : s.event.context
    out.push({ ...s, event: { ...s.event, stack: resolved.stack, culprit, context } })
  }
  return out
}

function locationOf(line: string): string | null {
  const match = LOCATION.exec(line)
  return match ? (match[1] ?? match[2] ?? match[3] ?? null) : null
}
