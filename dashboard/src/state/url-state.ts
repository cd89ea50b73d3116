import { useEffect, useState } from 'preact/hooks'
import { ISSUE_KINDS, ISSUE_STATUSES, SEVERITIES } from '../../../shared/constants.ts'

/**
 * All view state lives in the query string, so every view can be bookmarked and shared and back/forward
 * work (reference-behaviour.md §7 "URL state"). The worker routes `?api=` to the API, so no key here may
 * ever be called `api` — the page would load as JSON.
 */
export const VIEWS = ['issues', 'analytics', 'settings'] as const
export const SETTINGS_TABS = ['ingestion', 'logs', 'maintenance', 'plugins', 'ingest', 'alerts', 'tracker', 'releases', 'connectors'] as const
/** `priority` (severity band, then recent frequency with a 7-day half-life) is the list's default (issue 17 item 3; docs/deviations.md). */
export const SORTS = ['priority', 'occurrences', 'newest', 'oldest'] as const
export const PAGE_SIZES = [25, 50, 100, 200] as const

export interface ViewState {
  readonly view: (typeof VIEWS)[number]
  readonly tab: (typeof SETTINGS_TABS)[number]
  readonly q: string
  readonly severity: string
  /** `min_severity`: this severity and worse (the API parameter of the same name). */
  readonly min_severity: string
  readonly date: string
  readonly sort: (typeof SORTS)[number]
  readonly status: string
  readonly tag: string
  readonly log_type: string
  readonly kind: string
  readonly app: string
  readonly module: string
  readonly source: string
  readonly page: number
  readonly limit: number
  readonly issue: number | null
}

export const DEFAULT_STATE: ViewState = {
  view: 'issues', tab: 'ingestion', q: '', severity: '', min_severity: '', date: '', sort: 'priority', status: '', tag: '',
  log_type: '', kind: '', app: '', module: '', source: '', page: 1, limit: 50, issue: null,
}

/** The keys that narrow the issue list; changing one goes back to page 1. */
export const FILTER_KEYS = ['q', 'severity', 'min_severity', 'date', 'status', 'tag', 'log_type', 'kind', 'module', 'source'] as const
export type FilterKey = (typeof FILTER_KEYS)[number]
const ORDER: (keyof ViewState)[] = ['app', 'view', 'tab', ...FILTER_KEYS, 'sort', 'page', 'limit', 'issue']

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback

/** Reads a query string; unknown or malformed values fall back to the defaults instead of failing. */
export function parseState(search: string): ViewState {
  const p = new URLSearchParams(search)
  const text = (key: string) => (p.get(key) ?? '').trim()
  const page = Number(p.get('page'))
  const limit = Number(p.get('limit'))
  const issue = Number(p.get('issue'))
  const severity = text('severity').toUpperCase()
  const minSeverity = text('min_severity').toUpperCase()
  const date = text('date')
  return {
    view: oneOf(VIEWS, p.get('view'), 'issues'),
    tab: oneOf(SETTINGS_TABS, p.get('tab'), 'ingestion'),
    q: p.get('q') ?? '',
    severity: (SEVERITIES as readonly string[]).includes(severity) ? severity : '',
    min_severity: (SEVERITIES as readonly string[]).includes(minSeverity) ? minSeverity : '',
    date: /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : '',
    sort: oneOf(SORTS, p.get('sort'), DEFAULT_STATE.sort),
    status: oneOf(['', ...ISSUE_STATUSES], p.get('status'), ''),
    tag: text('tag'),
    log_type: text('log_type'),
    kind: oneOf(['', ...ISSUE_KINDS], p.get('kind'), ''),
    app: text('app'),
    module: text('module'),
    source: text('source'),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_STATE.limit,
    issue: Number.isInteger(issue) && issue >= 1 ? issue : null,
  }
}

/** The query string for a state, defaults left out (`?` alone for the default view). */
export function serializeState(state: ViewState): string {
  const params = new URLSearchParams()
  for (const key of ORDER) {
    const value = state[key]
    if (key === 'tab' && state.view !== 'settings') continue
    if (value === null || value === '' || value === DEFAULT_STATE[key]) continue
    params.set(key, String(value))
  }
  const query = params.toString()
  return query ? `?${query}` : location.pathname
}

/** The state with `patch` applied: new filters reset the page, a new application resets everything else. */
export function applyPatch(state: ViewState, patch: Partial<ViewState>): ViewState {
  if (patch.app !== undefined && patch.app !== state.app) return { ...DEFAULT_STATE, app: patch.app, view: patch.view ?? state.view }
  const next = { ...state, ...patch }
  const narrows = FILTER_KEYS.some((key) => key in patch && patch[key] !== state[key]) || ('sort' in patch && patch.sort !== state.sort) || ('limit' in patch && patch.limit !== state.limit)
  if (narrows && !('page' in patch)) next.page = 1
  return next
}

type Listener = (state: ViewState) => void
const listeners = new Set<Listener>()
let current = parseState(location.search)
/** Consecutive search keystrokes replace one history entry instead of adding one each. */
let lastWasTyping = false

export function readState(): ViewState {
  return current
}

export function hrefFor(patch: Partial<ViewState>): string {
  return serializeState(applyPatch(current, patch))
}

/**
 * Moves to a new view state. `push` (the default) adds a history entry; `typing` is for the search box,
 * whose keystrokes share one entry.
 */
export function navigate(patch: Partial<ViewState>, mode: 'push' | 'replace' | 'typing' = 'push'): void {
  const next = applyPatch(current, patch)
  const url = serializeState(next)
  const replace = mode === 'replace' || (mode === 'typing' && lastWasTyping)
  lastWasTyping = mode === 'typing'
  if (url === serializeState(current)) return
  if (replace) history.replaceState(null, '', url)
  else history.pushState(null, '', url)
  update(parseState(location.search))
}

function update(state: ViewState): void {
  current = state
  for (const listener of listeners) listener(state)
}

window.addEventListener('popstate', () => {
  lastWasTyping = false
  update(parseState(location.search))
})

/** The current view state; re-renders on navigation and on back/forward. */
export function useViewState(): ViewState {
  const [state, setState] = useState(current)
  useEffect(() => {
    listeners.add(setState)
    setState(current)
    return () => void listeners.delete(setState)
  }, [])
  return state
}
