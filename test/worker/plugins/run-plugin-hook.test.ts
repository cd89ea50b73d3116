import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wrapDriver } from '../../../drivers/wrap-driver.ts'
import type { AppScope } from '../../../worker/apps/app-scope.ts'
import { OperationalError } from '../../../worker/errors.ts'
import { BUILTIN_PLUGINS, pluginCatalog } from '../../../worker/plugins/catalog.ts'
import { definePlugin, type Plugin, type PluginHooks } from '../../../worker/plugins/plugin.ts'
import { loadPluginSettings, setPluginEnabled } from '../../../worker/plugins/plugin-catalog.ts'
import { HOOK_FAILURE_MAX_CHARS, runPluginHook } from '../../../worker/plugins/run-plugin-hook.ts'
import { TARGETS } from '../../drivers/driver-targets.ts'
import { testHookServices } from './hook-services.ts'
import { migratedScope, type MigratedScope } from '../digest/persist/migrated-scope.ts'

const NOW = new Date('2026-03-01T12:00:00Z')

function plugin(id: string, hooks: PluginHooks, overrides: Partial<Plugin> = {}): Plugin {
  return definePlugin({ id, name: id, description: `${id} plugin`, category: 'Insights', status: 'active', defaultEnabled: true, hooks, ...overrides })
}

describe('definePlugin and the catalog', () => {
  it('refuses ids that cannot be settings keys', () => {
    expect(() => plugin('Bad-Id', {})).toThrow(/must match/)
    expect(() => plugin('', {})).toThrow(/must match/)
  })

  it('lets a later plugin replace one with the same id in place, and appends new ones', () => {
    const replacement = plugin('alerts', {})
    const extra = plugin('extra', {})
    const catalog = pluginCatalog([replacement, extra])
    expect(catalog.map((entry) => entry.id)).toEqual([...BUILTIN_PLUGINS.map((entry) => entry.id), 'extra'])
    expect(catalog[1]).toBe(replacement)
  })
})

describe.each(TARGETS)('runPluginHook on %s', { timeout: 60_000 }, (target) => {
  let m: MigratedScope
  beforeAll(async () => {
    m = await migratedScope(target, 'hooks')
  })
  afterAll(async () => {
    await m?.close()
  })

  it('runs enabled plugins in catalog order; resolveStack stops at the first non-null result', async () => {
    const calls: string[] = []
    const resolver = (id: string, result: string | null) => plugin(id, { resolveStack: async () => (calls.push(id), result === null ? null : { stack: result, sources: new Map() }) })
    const plugins = [resolver('none', null), resolver('first', 'resolved by first'), resolver('second', 'resolved by second'), resolver('off', 'x')]
    await setPluginEnabled(m.scope, plugins, { id: 'off', enabled: false }, '2026-03-01 12:00:00')
    const results = await runPluginHook({ plugins, scope: m.scope, hook: 'resolveStack', now: NOW, firstResult: true, call: (hooks) => hooks.resolveStack?.({ scope: m.scope, now: NOW, stack: 's', release: null, services: testHookServices(), memo: new Map() }) })
    expect(calls).toEqual(['none', 'first'])
    expect([...results]).toEqual([['none', null], ['first', { stack: 'resolved by first', sources: new Map() }]])
  })

  it('skips planned plugins and plugins without the hook, and costs no query when none has it', async () => {
    const ran: string[] = []
    const plugins = [plugin('planned_one', { afterIngest: async () => void ran.push('planned') }, { status: 'planned' }), plugin('no_hook', {})]
    let queries = 0
    const counting: AppScope = { ...m.scope, db: wrapDriver(m.scope.db, (_call, proceed) => (queries++, proceed())) }
    await runPluginHook({ plugins, scope: counting, hook: 'afterIngest', now: NOW, call: (hooks) => hooks.afterIngest?.({ scope: counting, now: NOW, via: 'file', events: 1, services: testHookServices() }) })
    expect(ran).toEqual([])
    expect(queries).toBe(0)
  })

  it('records a failure (cut to 300 characters), keeps the other plugins running, and clears it on success', async () => {
    let fail = true
    const long = `Linear said no: ${'x'.repeat(400)}`
    const plugins = [plugin('flaky', { afterIngest: async () => { if (fail) throw new OperationalError(long) } }), plugin('steady', { afterIngest: async () => {} })]
    const call = (hooks: PluginHooks) => hooks.afterIngest?.({ scope: m.scope, now: NOW, via: 'http', events: 3, services: testHookServices() })
    const results = await runPluginHook({ plugins, scope: m.scope, hook: 'afterIngest', now: NOW, call })
    expect([...results.keys()]).toEqual(['steady'])
    const failure = (await loadPluginSettings(m.scope, plugins)).failures.get('flaky')!
    expect(failure).toEqual({ hook: 'afterIngest', message: `${long.slice(0, HOOK_FAILURE_MAX_CHARS - 1)}…`, at: '2026-03-01 12:00:00' })
    expect(failure.message).toHaveLength(HOOK_FAILURE_MAX_CHARS)
    expect((await loadPluginSettings(m.scope, plugins)).failures.has('steady')).toBe(false)

    fail = false
    await runPluginHook({ plugins, scope: m.scope, hook: 'afterIngest', now: NOW, call })
    expect((await loadPluginSettings(m.scope, plugins)).failures.size).toBe(0)
  })

  it('skips the hooks, without throwing, when the settings cannot be read', async () => {
    const ran: string[] = []
    const broken: AppScope = { ...m.scope, db: wrapDriver(m.scope.db, async () => { throw new Error('connection reset') }) }
    const plugins = [plugin('any', { afterIngest: async () => void ran.push('any') })]
    const results = await runPluginHook({ plugins, scope: broken, hook: 'afterIngest', now: NOW, call: (hooks) => hooks.afterIngest?.({ scope: broken, now: NOW, via: 'file', events: 1, services: testHookServices() }) })
    expect(results.size).toBe(0)
    expect(ran).toEqual([])
  })

  it('treats a stored value it cannot decode as unset (the default applies)', async () => {
    const plugins = [plugin('garbled', {}, { defaultEnabled: true })]
    await m.scope.db.execute({ sql: `INSERT INTO ${m.scope.t.settings} (${m.scope.db.dialect.quote('key')}, value, updated_at) VALUES (?, ?, ?), (?, ?, ?)`, args: ['plugin.garbled.enabled', 'maybe', 'x', 'plugin.garbled.last_error', '{not json', 'x'] })
    const settings = await loadPluginSettings(m.scope, plugins)
    expect(settings.enabled.has('garbled')).toBe(false)
    expect(settings.failures.has('garbled')).toBe(false)
  })
})
