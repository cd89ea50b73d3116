import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { digestIngested } from '../../../../worker/plugins/http-ingest/digest-ingested.ts'
import type { IngestEvent } from '../../../../worker/plugins/http-ingest/ingest-event.ts'
import { stagedRow, stageStatements } from '../../../../worker/plugins/http-ingest/staged-events.ts'
import { sql } from '../../../../drivers/sql.ts'
import type { LogStore } from '../../../../worker/intake/log-store.ts'
import { setPluginEnabled } from '../../../../worker/plugins/plugin-catalog.ts'
import { clearMapCache } from '../../../../worker/plugins/releases/map-cache.ts'
import { releasesPlugin } from '../../../../worker/plugins/releases/plugin.ts'
import { presentSource } from '../../../../worker/plugins/releases/resolve-stack.ts'
import { storeSourceMap } from '../../../../worker/plugins/releases/source-maps.ts'
import { TARGETS } from '../../../drivers/driver-targets.ts'
import { migratedScope, type MigratedScope } from '../../digest/persist/migrated-scope.ts'
import { memoryLogStore } from '../../intake/memory-log-store.ts'
import { testHookServices } from '../hook-services.ts'
import { buildBundle, thrownStack, type BuiltBundle } from './build-fixture.ts'

const NOW = new Date('2026-11-25T12:00:00Z')

function event(stack: string, release: string, culprit: string | null = null): IngestEvent {
  return {
    message: 'Coupon LONGCODE is invalid',
    severity: 'ERROR',
    environment: 'production',
    channel: 'browser',
    exceptionClass: 'TypeError',
    stack,
    culprit,
    occurredAt: '2026-11-25 11:00:00',
    release,
    context: null,
    fingerprint: null,
    tags: [],
    module: null,
    eventId: null,
  }
}

/**
 * Stack resolution through the releases plugin's `resolveStack` hook in the ingest digest (issue 14): real
 * esbuild bundles thrown in V8, their maps decoded with @jridgewell/trace-mapping, grouping over the
 * resolved frames (two builds of one bug are one issue), and each map read from the log bucket once.
 */
describe.each(TARGETS)('source-map resolution on %s', { timeout: 120_000 }, (target) => {
  let m: MigratedScope
  let first: BuiltBundle
  let second: BuiltBundle
  let reads: string[]
  let logs: LogStore
  const plugins = [releasesPlugin]
  const digest = () => digestIngested({ scope: m.scope, plugins, services: { ...testHookServices(), logs }, now: () => NOW })
  const stage = (events: IngestEvent[], via: 'http' | 'sentry' = 'http') => m.scope.db.batch(stageStatements(m.scope, events.map((event) => stagedRow(event, via)), '2026-11-25 12:00:00', sql`1 = 1`))

  beforeAll(async () => {
    m = await migratedScope(target, 'maps')
    first = await buildBundle()
    second = await buildBundle('var build="b";console.log(build);')
    const memory = memoryLogStore().store
    reads = []
    logs = { ...memory, read: (key, offset, length) => (reads.push(key), memory.read(key, offset, length)) }
    await setPluginEnabled(m.scope, plugins, { id: 'releases', enabled: true }, '2026-11-25 10:00:00')
    const encode = (text: string) => new TextEncoder().encode(text)
    await storeSourceMap(m.scope, logs, { release: 'shop@1.0.0', file: 'app-3f9a.js', bytes: encode(first.map) }, '2026-11-25 10:00:00')
    await storeSourceMap(m.scope, logs, { release: 'shop@1.0.1', file: 'app-77bb.js.map', bytes: encode(second.map) }, '2026-11-25 10:00:00')
  })
  afterAll(() => m.close())
  beforeEach(() => {
    clearMapCache()
    reads.length = 0
  })

  it('resolves two builds of the same bug to the original frames, one issue, each map read once per batch', async () => {
    const absolute = thrownStack(first, 'https://shop.example/assets/app-3f9a.js')
    expect(absolute).toMatch(/^ {4}at i \(https:\/\/shop\.example\/assets\/app-3f9a\.js:1:\d+\)/)
    const tilde = thrownStack(second, 'https://shop.example/assets/app-77bb.js').replaceAll('https://shop.example/assets/', '~/assets/')
    const culprit = /\((~\/assets\/app-77bb\.js:\d+:\d+)\)/.exec(tilde)![1]!
    // One intake (grouping keys include it): the Sentry events of two builds, the second naming its culprit.
    await stage([event(absolute, 'shop@1.0.0'), event(absolute, 'shop@1.0.0')], 'sentry')
    await stage([event(tilde, 'shop@1.0.1', culprit)], 'sentry')
    expect(await digest()).toEqual({ events: 3, batches: 1, more: false })
    expect(reads).toHaveLength(2)

    const { t } = m.scope
    const groups = await m.rows<{ id: number; count: number; source_frame: string; sample_stack: string }>(`SELECT id, count, source_frame, sample_stack FROM ${t.groups}`)
    expect(groups, JSON.stringify(groups)).toHaveLength(1)
    expect(Number(groups[0]!.count)).toBe(3)
    expect(groups[0]!.source_frame).toBe('src/checkout.ts:3:11')
    const lines = groups[0]!.sample_stack.split('\n')
    expect(lines[0]).toBe('    at applyCoupon (src/checkout.ts:3:11)')
    // The caller of `run` is the unmapped harness: its minified name stays.
    expect(lines[1]).toBe('    at Object.s (src/main.ts:3:10)')
    // The try/catch line of the test harness has no mapping and stays as it was.
    expect(lines[2]).toMatch(/^ {4}at ~\/assets\/app-77bb\.js:4:\d+$/)

    // The Sentry event's culprit moved to its resolved frame, with the source lines around it.
    const contexts = await m.rows<{ context_preview: string | null }>(`SELECT context_preview FROM ${t.occurrences} ORDER BY id`)
    expect(JSON.parse(contexts[2]!.context_preview!).culprit_source).toEqual({
      pre: ['export function applyCoupon(cart: { total: number }, code: string): number {', '  if (code.length > 3) {'],
      line: '    throw new TypeError(`Coupon ${code} is invalid`)',
      post: ['  }', '  return cart.total', '}', ''],
      at: 'src/checkout.ts:3:11',
    })

    // Later batches of the same builds reuse the isolate's parsed maps: nothing is read again.
    reads.length = 0
    await stage([event(absolute, 'shop@1.0.0'), event(tilde, 'shop@1.0.1')], 'sentry')
    await digest()
    expect(reads).toEqual([])
    expect(Number((await m.rows<{ count: number }>(`SELECT count FROM ${t.groups}`))[0]!.count)).toBe(5)
  })

  it('leaves stacks alone without a release, without a map, or with the plugin off', async () => {
    const absolute = thrownStack(first, 'https://shop.example/assets/app-3f9a.js')
    await stage([event(absolute, 'shop@9.9.9')])
    await digest()
    await setPluginEnabled(m.scope, plugins, { id: 'releases', enabled: false }, '2026-11-25 10:00:00')
    await stage([{ ...event(absolute, 'shop@1.0.0'), message: 'Plugin off' }])
    await digest()
    await setPluginEnabled(m.scope, plugins, { id: 'releases', enabled: true }, '2026-11-25 10:00:00')
    const { t } = m.scope
    const minified = await m.rows<{ source_frame: string }>(`SELECT source_frame FROM ${t.groups} WHERE source_frame LIKE 'https:%' ORDER BY id`)
    expect(minified.map((row) => row.source_frame)).toEqual([first, first].map(() => expect.stringMatching(/^https:\/\/shop\.example\/assets\/app-3f9a\.js:1:\d+$/)))
    expect(reads).toEqual([])
  })
})

describe('presentSource', () => {
  it.each([
    ['../src/checkout.ts', 'src/checkout.ts'],
    ['./src/a.ts', 'src/a.ts'],
    ['webpack://shop/./src/a.ts', 'src/a.ts'],
    ['https://cdn.example/src/a.ts', 'https://cdn.example/src/a.ts'],
    ['src/a.ts', 'src/a.ts'],
  ])('%s → %s', (source, shown) => {
    expect(presentSource(source)).toBe(shown)
  })
})
