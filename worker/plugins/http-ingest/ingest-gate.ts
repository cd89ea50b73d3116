import { Fragment, join, raw, sql } from '../../../drivers/sql.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import type { Plugin } from '../plugin.ts'
import { decodePluginSettings, isPluginEnabled, pluginSettingKeys } from '../plugin-settings.ts'
import { settingValue } from '../../settings/app-settings.ts'
import { INGEST_KEY_SETTING } from './ingest-key.ts'
import type { RateCap, RateWindow } from './rate-limit.ts'

/**
 * What an intake checks before it accepts anything (reference §4.3): the plugin's switch, the sealed key, and
 * the rate counters of the caps it counts against — as last read from the database, per isolate and
 * application. Every accepted batch's commit reads them again (ingest-commit.ts), so under load the view is
 * never older than the last commit; idle, it is read afresh after `FRESH_MS`. The view only lets requests
 * in: a request it would refuse is checked against a fresh read first, and what it let in is staged only if
 * the switch and the key are still what it saw (`stillOpen`), so a key regenerated or a plugin switched off
 * elsewhere takes effect at once.
 */
export interface GateView {
  readonly enabled: boolean
  /** The sealed key as stored, or null before anyone opened the ingest settings. */
  readonly sealed: string | null
  /** Rows `scope, bucket, count` per cap scope (`app`, `ip:<address>`), for the buckets read. */
  readonly counters: ReadonlyMap<string, readonly Record<string, unknown>[]>
  /** The window bucket the counters were read for. */
  readonly bucket: number
  readonly readAt: number
}

/** How long an idle view is trusted for the rate counters (other isolates count too). */
export const FRESH_MS = 1000

/** At most this many per-IP counter sets are remembered per application and isolate. */
const MAX_REMEMBERED_SCOPES = 1024

/**
 * The gate's reads in ONE statement (each statement costs a round trip's worth on the engines that count them
 * — PlanetScale's per-statement requests, D1's per-statement work): the plugin's settings and the sealed key
 * as `setting` rows, and the counters of the caps' current and previous buckets as `counter` rows.
 */
export function gateRead(scope: AppScope, plugin: Plugin, caps: readonly RateCap[], window: RateWindow): Fragment {
  const d = scope.db.dialect
  const key = d.quote('key')
  const keys = [pluginSettingKeys.enabled(plugin.id), INGEST_KEY_SETTING]
  const list = (values: readonly (string | number)[]) => join(values.map((value) => sql`${value}`), ', ')
  // The caps' scopes as ONE JSON parameter: a commit carries the caps of every request queued behind it — one
  // per client address with the per-IP cap on — and D1 refuses a statement of more than 100 parameters.
  const scopes = new Fragment(`(SELECT j.s FROM ${d.jsonRecords({ s: 'text' }, 'j')})`, [JSON.stringify(caps.map((cap) => ({ s: cap.scope })))])
  return sql`SELECT 'setting' AS kind, ${raw(key)} AS name, value, NULL AS bucket, NULL AS count FROM ${raw(scope.t.settings)} WHERE ${raw(key)} IN (${list(keys)})
    UNION ALL SELECT 'counter', scope, NULL, bucket, count FROM ${raw(scope.t.ingestRate)} WHERE scope IN ${scopes} AND bucket IN (${list([window.bucket, window.bucket - 1])})`
}

/** Decodes `gateRead` rows into a view (keeping counters of scopes not read from `previous`, same bucket). */
export function toGateView(plugin: Plugin, rows: readonly Record<string, unknown>[], caps: readonly RateCap[], window: RateWindow, now: number, previous: GateView | undefined): GateView {
  const settings = rows.filter((row) => row.kind === 'setting').map((row) => ({ k: row.name, value: row.value }))
  const counterRows = rows.filter((row) => row.kind === 'counter').map((row) => ({ scope: row.name, bucket: Number(row.bucket), count: Number(row.count) }))
  const counters = new Map(previous && previous.bucket === window.bucket ? previous.counters : [])
  for (const cap of caps) counters.delete(cap.scope)
  while (counters.size > 0 && counters.size + caps.length > MAX_REMEMBERED_SCOPES) counters.delete(counters.keys().next().value!)
  for (const cap of caps) counters.set(cap.scope, counterRows.filter((row) => row.scope === cap.scope))
  return {
    enabled: isPluginEnabled(plugin, decodePluginSettings([plugin], settings)),
    sealed: settingValue(settings.filter((row) => row.k === INGEST_KEY_SETTING)),
    counters,
    bucket: window.bucket,
    readAt: now,
  }
}

/** Whether the view can answer for these caps at `now` (fresh, same window, every cap's counters known). */
export function viewCovers(view: GateView | undefined, caps: readonly RateCap[], window: RateWindow, now: number): view is GateView {
  return view !== undefined && now - view.readAt < FRESH_MS && view.bucket === window.bucket && caps.every((cap) => view.counters.has(cap.scope))
}

/** The counter rows of these caps, as the view holds them. */
export function viewCounters(view: GateView, caps: readonly RateCap[]): Record<string, unknown>[] {
  return caps.flatMap((cap) => [...(view.counters.get(cap.scope) ?? [])])
}

/**
 * A SQL condition true while the plugin is still on and the stored key is still `sealed`: staged rows are
 * inserted under it, in the same atomic batch, so nothing is staged past a switch or key change.
 */
export function stillOpen(scope: AppScope, plugin: Plugin, sealed: string): Fragment {
  const T = scope.t.settings
  const key = scope.db.dialect.quote('key')
  const value = (name: string): Fragment => new Fragment(`(SELECT value FROM ${T} WHERE ${key} = ?)`, [name])
  return sql`COALESCE(${value(pluginSettingKeys.enabled(plugin.id))}, ${String(plugin.defaultEnabled)}) = 'true' AND ${value(INGEST_KEY_SETTING)} = ${sealed}`
}
