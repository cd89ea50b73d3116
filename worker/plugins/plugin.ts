import type { AppScope } from '../apps/app-scope.ts'
import type { ConfigSection } from '../config/config-section.ts'
import type { Handler, Method } from '../http/router.ts'
import type { Deps } from '../deps.ts'

import type { HookFailure, PluginView } from '../../shared/schemas/plugin.ts'
import type { QueryResult, Statement } from '../../drivers/driver.ts'

/** Where a plugin shows in the catalog (reference §4.1's categories). */
export type PluginCategory = PluginView['category']

/**
 * `active` plugins can be switched on; `planned` ones are listed so users see what is coming, and switching
 * one on is refused with "The {name} plugin is not available yet." (reference §3.5).
 */
export type PluginStatus = PluginView['status']

/** One endpoint a plugin owns: `?api=<endpoint>`, a handler per method. Scoped to the request's application. */
export interface PluginRoute {
  readonly endpoint: string
  readonly handlers: Partial<Record<Method, Handler>>
  /**
   * The handler reads the plugin's switch itself, in a batch it makes anyway (`ingest`: with the key and the
   * rate counters), instead of the read the router puts in front of plugin routes — one round trip less.
   */
  readonly checksEnabled?: boolean
}

/**
 * An endpoint outside `?api=` (Sentry SDKs post to `/api/<project>/envelope/`): an itty-router path with
 * params. It skips the API guard and the application parameter — the handler authenticates and finds the
 * application itself — and must answer 404 while its plugin is off for that application.
 */
export interface PluginPath {
  readonly path: string
  readonly handlers: Partial<Record<Method, Handler>>
}

/** What every hook gets: the application it runs for and the clock. Hooks never see the request. */
export interface HookContext {
  readonly scope: AppScope
  readonly now: Date
}

/**
 * What background-capable hooks may use besides the application: configuration, the secret box, the log
 * store (releases read source maps there), and `waitUntil` for work that must not hold up the ingest that ran
 * the hook (alerting scans after the response).
 */
export type HookServices = Pick<Deps, 'config' | 'secrets' | 'waitUntil' | 'logs'>

/** After events were stored, whatever brought them (file import, HTTP ingest, Sentry ingest). */
export interface IngestedEvents extends HookContext {
  readonly services: HookServices
  /** Where the events came from: `file`, `http` or `sentry`. */
  readonly via: 'file' | 'http' | 'sentry'
  /** Occurrences stored by this ingest. */
  readonly events: number
}

/** A stack about to be analysed, with the release the event named (releases de-minify it with source maps). */
export interface StackToResolve extends HookContext {
  /** Frames one per line, innermost first (`    at fn (file:line:col)` for JavaScript). */
  readonly stack: string
  readonly release: string | null
  readonly services: HookServices
  /**
   * Scratch space shared by the calls of one digest batch (a plugin keys its entries by its id): what one
   * event looked up — a release's source maps — the next one reuses, so a batch fetches each map once.
   */
  readonly memo: Map<string, unknown>
}

/** Source lines around a resolved frame (from the map's `sourcesContent`), as the inspector shows them. */
export interface FrameSource {
  readonly pre: readonly string[]
  readonly line: string
  readonly post: readonly string[]
  /** The frame's location, `file:line:col`. */
  readonly at: string
}

/** A resolved stack: the same lines in the same order, each frame the plugin could map rewritten. */
export interface ResolvedStack {
  readonly stack: string
  /** Source lines of resolved frames, by line index in `stack` (the digest keeps the culprit's). */
  readonly sources: ReadonlyMap<number, FrameSource>
}

/** An issue's status changed through the API (not the automatic fixed → reoccurred, reference §2.8). */
export interface StatusChanged extends HookContext {
  /** Configuration and the secret box (the tracker's write-back opens its API key). */
  readonly services: HookServices
  readonly issueId: number
  readonly fromStatus: string
  readonly status: string
  readonly note: string | null
  /** The results of the plugin's `statusChangeReads`, read in the status change's own batch (empty without). */
  readonly prefetched: readonly QueryResult[]
  /** The stored values of the plugin's `statusChangeSettings` keys (a key never written is absent). */
  readonly settingValues: ReadonlyMap<string, string>
}

/** The cron trigger's maintenance of one application (HTTP ingest digests what is still pending). */
export interface Maintenance extends HookContext {
  readonly services: HookServices
  /** The catalog, for work that runs other hooks (a digest runs `afterIngest`). */
  readonly plugins: readonly Plugin[]
}

/**
 * The three hooks of reference §4.1, and `maintain`, Loupe's own. A failing hook never breaks the ingest or status change that called it:
 * `runPluginHook` records its message as the plugin's `last_error`, cleared by its next success.
 */
export interface PluginHooks {
  afterIngest?(event: IngestedEvents): Promise<void>
  /** The first non-null result (in catalog order) replaces the stack; its lines must stay one for one. */
  resolveStack?(event: StackToResolve): Promise<ResolvedStack | null>
  /** The result is merged into the `issue-status` response under the plugin's id. */
  statusChanged?(event: StatusChanged): Promise<unknown>
  /** Runs from the cron trigger, per application, with the plugin on. */
  maintain?(event: Maintenance): Promise<void>
}

export type HookName = keyof PluginHooks & HookFailure['hook']

/** A plugin: one folder under worker/plugins/ exporting one of these, listed once in `catalog.ts`. */
export interface Plugin {
  /** Snake case, stable: stored in settings and used by the API (`POST ?api=plugins {id}`). */
  readonly id: string
  readonly name: string
  readonly description: string
  readonly category: PluginCategory
  readonly status: PluginStatus
  /** Whether an application that never toggled the plugin has it on. */
  readonly defaultEnabled: boolean
  /** Endpoints it owns; each answers 404 while the plugin is off for the application. */
  readonly routes?: readonly PluginRoute[]
  /** Endpoints at their own paths (see `PluginPath`). */
  readonly paths?: readonly PluginPath[]
  readonly hooks?: PluginHooks
  /**
   * Reads the `statusChanged` hook needs (the tracker: the issue's link and its settings), run inside the status
   * change's own batch so the hook costs no round trip of its own; their results arrive as `prefetched`.
   */
  readonly statusChangeReads?: (scope: AppScope, issueId: number) => readonly Statement[]
  /**
   * Application setting keys the `statusChanged` hook needs, read by the same statement as the plugins' switches
   * (both are `app_settings` rows), so they cost no statement of their own — on PlanetScale, no request (issue
   * 18); their values arrive as `settingValues`.
   */
  readonly statusChangeSettings?: readonly string[]
  /**
   * Its `SERVICE_CONFIG` section (`defineSection('<id>', {...})`): parsed with the core sections, bad values
   * are health warnings, and handlers read it with `deps.config.section(section)`.
   */
  readonly config?: ConfigSection<unknown>
}

const PLUGIN_ID = /^[a-z][a-z0-9_]{0,39}$/

/** Checks a plugin's identity once, where it is declared: a bad id would corrupt its settings keys. */
export function definePlugin(plugin: Plugin): Plugin {
  if (!PLUGIN_ID.test(plugin.id)) throw new Error(`Plugin id "${plugin.id}" must match ${PLUGIN_ID}`)
  return plugin
}
