import type { Statement } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { AppError } from '../errors.ts'
import { toTimestamp } from '../time.ts'
import type { HookName, Plugin, PluginHooks } from './plugin.ts'
import { loadPluginSettings } from './plugin-catalog.ts'
import type { HookFailure } from '../../shared/schemas/plugin.ts'
import { isPluginEnabled, pluginSettingWrites, type PluginSettings } from './plugin-settings.ts'
import { logFailure } from '../log-failure.ts'

/** Hook failure messages are kept to this many characters (reference §4.1). */
export const HOOK_FAILURE_MAX_CHARS = 300

export interface HookRun<R> {
  readonly plugins: readonly Plugin[]
  readonly scope: AppScope
  readonly hook: HookName
  readonly now: Date
  /** Calls the hook named `hook` of one plugin, e.g. `(hooks) => hooks.statusChanged?.(change)`. */
  readonly call: (hooks: PluginHooks, plugin: Plugin) => Promise<R> | undefined
  /** The settings when the caller already read them in one of its own batches (saves the read). */
  readonly settings?: PluginSettings
  /** Stop at the first non-null result (`resolveStack`). */
  readonly firstResult?: boolean
}

/**
 * Runs one hook of every plugin enabled for the application, in catalog order, each isolated (reference §4.1):
 * a hook that throws is logged and its message kept as the plugin's `last_error`; a later success clears it.
 * Neither ever reaches the caller, so a plugin cannot break the ingest or status change that ran it. Costs
 * nothing when no active plugin has the hook; otherwise one read (unless `settings` is given) and one write
 * when a failure was recorded or cleared.
 */
export async function runPluginHook<R>(run: HookRun<R>): Promise<Map<string, R | undefined>> {
  /** Each enabled plugin's result, by plugin id (failed plugins are absent). */
  const results = new Map<string, R | undefined>()
  const candidates = run.plugins.filter((plugin) => plugin.status === 'active' && plugin.hooks?.[run.hook])
  if (candidates.length === 0) return results
  const settings = run.settings ?? (await loadSettingsQuietly(run.scope, run.plugins))
  if (!settings) return results
  const writes: Statement[] = []
  const at = toTimestamp(run.now)
  for (const plugin of candidates) {
    if (!isPluginEnabled(plugin, settings)) continue
    try {
      const result = await run.call(plugin.hooks ?? {}, plugin)
      results.set(plugin.id, result)
      if (settings.failures.has(plugin.id)) writes.push(pluginSettingWrites.clearFailure(run.scope, plugin.id))
      if (run.firstResult && result !== null && result !== undefined) break
    } catch (error) {
      const failure: HookFailure = { hook: run.hook, message: failureMessage(run.hook, error), at }
      logFailure(`plugin ${plugin.id}: ${run.hook} hook failed for application ${run.scope.app.id}`, error)
      writes.push(pluginSettingWrites.failure(run.scope, plugin.id, failure, at))
    }
  }
  if (writes.length > 0) {
    try {
      await run.scope.db.batch(writes)
    } catch (error) {
      logFailure(`recording plugin hook outcomes for application ${run.scope.app.id}`, error)
    }
  }
  return results
}

/** The settings, or null when they cannot be read: the hooks are then skipped, never the caller's work. */
async function loadSettingsQuietly(scope: AppScope, plugins: readonly Plugin[]): Promise<PluginSettings | null> {
  try {
    return await loadPluginSettings(scope, plugins)
  } catch (error) {
    logFailure(`reading plugin settings for application ${scope.app.id} failed; hooks skipped`, error)
    return null
  }
}

/**
 * What the owner sees as `last_error`: an `AppError`'s message is written for users (e.g. "Linear answered
 * HTTP 401"); anything else may carry internals, so it is named only by the hook and left to the log.
 */
function failureMessage(hook: HookName, error: unknown): string {
  const message = error instanceof AppError ? error.message : `The ${hook} hook failed unexpectedly; the worker log has the details.`
  return message.length > HOOK_FAILURE_MAX_CHARS ? `${message.slice(0, HOOK_FAILURE_MAX_CHARS - 1)}…` : message
}
