import { ISSUE_KINDS, ISSUE_STATUSES, SEVERITIES } from '../../../shared/constants.ts'
import type { Summary } from '../api/types.ts'
import { basename, humanize } from '../lib/format.ts'
import { useCatalog } from '../state/catalog.tsx'
import { FILTER_KEYS, navigate, SORTS, type FilterKey, type ViewState } from '../state/url-state.ts'
import { Icon } from './icon.tsx'

const SORT_LABELS: Record<(typeof SORTS)[number], string> = { priority: 'Priority', occurrences: 'Most occurrences', newest: 'Latest activity', oldest: 'First observed' }

/** Every list filter of the API (docs/api.md "errors, issues"), each a labelled control bound to the URL. */
export function FilterBar({ state, summary, total }: { state: ViewState; summary: Summary | undefined; total: number | undefined }) {
  const { tags, modules } = useCatalog()
  const set = (patch: Partial<ViewState>) => navigate({ ...patch, issue: null })
  const logTypes = new Set(summary?.types.map((row) => row.log_type) ?? [])
  if (state.log_type) logTypes.add(state.log_type)
  const active = FILTER_KEYS.filter((key) => state[key] !== '')

  // A select whose options come from the server says so until they arrive (issue 17 item 14), keeping the
  // value from the URL selected meanwhile.
  const select = (key: FilterKey, label: string, options: readonly (readonly [string, string])[], loading = false) => (
    <div class="filter">
      <label for={`filter-${key}`}>{label}</label>
      <select id={`filter-${key}`} value={state[key]} disabled={loading} aria-busy={loading} onChange={(event) => set({ [key]: event.currentTarget.value })}>
        <option value="">{loading ? 'Loading…' : 'All'}</option>
        {loading && state[key] !== '' && <option value={state[key]}>{state[key]}</option>}
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  )

  return (
    <section class="filters" aria-label="Filters">
      <div class="filter-row">
        {select('severity', 'Severity', SEVERITIES.map((value) => [value, value]))}
        {select('min_severity', 'At least', SEVERITIES.map((value, index) => [value, index === 0 ? value : `${value} and worse`]))}
        {select('status', 'Status', ISSUE_STATUSES.map((value) => [value, humanize(value)]))}
        <div class="filter">
          <label for="filter-date">Date (UTC)</label>
          <input id="filter-date" type="date" value={state.date} onChange={(event) => set({ date: event.currentTarget.value })} />
        </div>
        {select('log_type', 'Log type', [...logTypes].sort().map((value) => [value, value]), summary === undefined)}
        {select('kind', 'Issue type', ISSUE_KINDS.map((value) => [value, humanize(value)]))}
        {select('module', 'Module', (modules.data?.data ?? []).map((module) => [module.slug, module.name]), !modules.data && !modules.error)}
        {select('tag', 'Tag', (tags.data?.data ?? []).map((tag) => [String(tag.id), tag.name]), !tags.data && !tags.error)}
      </div>
      <div class="filter-summary">
        <span class="match-count" data-testid="match-count" aria-live="polite">
          {total === undefined ? '…' : `${total.toLocaleString('en')} matching ${total === 1 ? 'group' : 'groups'}`}
        </span>
        {active.map((key) => (
          <button key={key} type="button" class="filter-chip" onClick={() => set({ [key]: '' })} aria-label={`Remove filter ${key === 'min_severity' ? 'severity' : key}: ${chipText(key, state, tags.data?.data)}`}>
            <span>
              {key === 'log_type' ? 'type' : key === 'min_severity' ? 'severity' : key}: <strong>{chipText(key, state, tags.data?.data)}</strong>
            </span>
            <Icon name="close" size={12} />
          </button>
        ))}
        {active.length > 0 && (
          <button type="button" class="link-button" onClick={() => set(Object.fromEntries(FILTER_KEYS.map((key) => [key, ''])))}>
            Clear all
          </button>
        )}
        <div class="sort-control">
          <label for="filter-sort">Sort</label>
          <select id="filter-sort" value={state.sort} onChange={(event) => set({ sort: event.currentTarget.value as ViewState['sort'] })}>
            {SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </select>
        </div>
      </div>
    </section>
  )
}

function chipText(key: FilterKey, state: ViewState, tags: readonly { id: number; name: string }[] | undefined): string {
  if (key === 'tag') return tags?.find((tag) => String(tag.id) === state.tag)?.name ?? state.tag
  if (key === 'source') return basename(state.source)
  if (key === 'status' || key === 'kind') return humanize(state[key])
  if (key === 'min_severity') return `${state.min_severity} and worse`
  return state[key]
}
