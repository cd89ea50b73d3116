import { useEffect, useRef, useState } from 'preact/hooks'
import type { IssueStatus } from '../../../shared/constants.ts'
import { setIssueStatus } from '../api/endpoints.ts'
import type { GroupsPage } from '../api/types.ts'
import { issuesToCsv, downloadText } from '../lib/csv.ts'
import { humanize } from '../lib/format.ts'
import type { ApiState } from '../state/use-api.ts'
import { useMutation } from '../state/use-mutation.ts'
import { FILTER_KEYS, navigate, type ViewState } from '../state/url-state.ts'
import { BulkBar } from './bulk-bar.tsx'
import { EmptyState } from './empty-state.tsx'
import { ErrorBanner } from './error-banner.tsx'
import { Icon } from './icon.tsx'
import { IssueTable } from './issue-table.tsx'
import { Pagination } from './pagination.tsx'
import { Skeleton } from './spinner.tsx'

/** The list's element id: the shell's "Skip to issues" link and the pager's scroll target point at it. */
export const ISSUES_ID = 'issues'

/**
 * The issue table with its toolbar (CSV export), selection and sticky bulk bar, pagination and every state;
 * row status changes; j/k/Enter; and focus that never falls to <body> when a control it sat on goes away.
 */
export function IssueList({ state, groups, listKey }: { state: ViewState; groups: ApiState<GroupsPage>; listKey: string }) {
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const section = useRef<HTMLElement>(null)
  const bulkSlot = useRef<HTMLDivElement>(null)
  const { busy, run } = useMutation()
  // A different list (filters, page, app) starts with nothing selected.
  useEffect(() => setSelected(new Set()), [listKey])

  const page = groups.data
  // After a refetch (a status change can move issues out of the filter) only visible issues stay selected.
  useEffect(() => {
    if (!page) return
    const shown = new Set(page.items.map((item) => item.id))
    setSelected((previous) => ([...previous].every((id) => shown.has(id)) ? previous : new Set([...previous].filter((id) => shown.has(id)))))
  }, [page])

  // The bulk bar's height, so the sticky table header sits right below the sticky bar.
  useEffect(() => {
    const slot = bulkSlot.current
    if (!slot || !section.current) return
    const observer = new ResizeObserver(() => section.current?.style.setProperty('--bulk-offset', `${slot.offsetHeight}px`))
    observer.observe(slot)
    return () => observer.disconnect()
  }, [])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => moveByKey(event, section.current)
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  const shownIds = useRef<number[]>([])
  useEffect(() => {
    shownIds.current = page?.items.map((item) => item.id) ?? []
  }, [page])

  /** A row or the bulk bar left the DOM while focused: focus the same control one row on, else the list. */
  const onFocusLost = (id: number | null) => {
    const active = document.activeElement as HTMLElement | null
    const control = active?.classList.contains('row-actions-button') ? '.row-actions-button' : active?.matches('input[type="checkbox"]') ? 'input[type="checkbox"]' : '.issue-link'
    const index = id === null ? -1 : shownIds.current.indexOf(id)
    requestAnimationFrame(() => {
      if (document.activeElement && document.activeElement !== document.body) return
      const rows = [...(section.current?.querySelectorAll<HTMLElement>('tr.issue-row') ?? [])]
      const target = index >= 0 && rows.length > 0 ? rows[Math.min(index, rows.length - 1)]!.querySelector<HTMLElement>(control) : null
      ;(target ?? section.current)?.focus()
    })
  }

  const changeStatus = (id: number, status: IssueStatus) => {
    if (busy) return
    void run(() => setIssueStatus(id, status, ''), { done: () => `Status set to ${humanize(status)}`, failure: 'Status change failed' })
  }

  const filtered = FILTER_KEYS.some((key) => state[key] !== '')
  const exportCsv = () => {
    if (!page) return
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')
    downloadText(`loupe-issues-${state.app || 'default'}-p${page.meta.page}-${stamp}.csv`, issuesToCsv(page.items))
  }

  return (
    <section ref={section} id={ISSUES_ID} tabIndex={-1} class="issue-list panel" aria-labelledby="issues-heading" aria-busy={groups.loading}>
      <div class="list-toolbar">
        <h2 id="issues-heading" class="panel-title">
          Issues {groups.loading && page && <span class="loading-dot" aria-hidden="true" />}
        </h2>
        <span class="muted small list-keys" aria-hidden="true">
          <kbd>j</kbd> <kbd>k</kbd> move · <kbd>Enter</kbd> open
        </span>
        <button type="button" class="button button-small button-ghost" onClick={exportCsv} disabled={!page || page.items.length === 0}>
          <Icon name="download" />
          Export CSV
        </button>
      </div>
      <div ref={bulkSlot} class="bulk-slot">
        {selected.size > 0 && <BulkBar ids={[...selected]} items={page?.items} onClear={() => setSelected(new Set())} onFocusLost={() => onFocusLost(null)} />}
      </div>
      {groups.error && <ErrorBanner error={groups.error} onRetry={groups.reload} context="Could not load issues" />}
      {!page && !groups.error && (
        <div class="table-skeleton">
          <Skeleton lines={8} height={22} />
        </div>
      )}
      {page && page.items.length === 0 && !groups.error && (
        filtered ? (
          <EmptyState title="No issues match these filters" icon="search">
            <button type="button" class="button button-small" onClick={() => navigate(Object.fromEntries(FILTER_KEYS.map((key) => [key, ''])))}>
              Clear filters
            </button>
          </EmptyState>
        ) : (
          <EmptyState title="No issues yet" icon="list">
            Upload a log file in <a href="?view=settings&tab=logs" onClick={(event) => { event.preventDefault(); navigate({ view: 'settings', tab: 'logs' }) }}>Settings → Logs</a>, send events to the ingest API, or create an issue with <strong>New issue</strong>.
          </EmptyState>
        )
      )}
      {page && page.items.length > 0 && (
        <>
          <IssueTable items={page.items} selected={selected} onSelect={setSelected} openId={state.issue} busy={busy} onStatus={changeStatus} onFocusLost={onFocusLost} />
          <Pagination meta={page.meta} />
        </>
      )}
    </section>
  )
}

/**
 * j / k focus the next / previous issue's title link (Enter then opens it, as a link does). Ignored while
 * typing in a field, with a modifier, or under an open dialog — like the `/` shortcut (search-box.tsx).
 */
function moveByKey(event: KeyboardEvent, list: HTMLElement | null): void {
  if ((event.key !== 'j' && event.key !== 'k') || event.ctrlKey || event.metaKey || event.altKey || !list) return
  const target = event.target as HTMLElement | null
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.closest('[role="menu"]'))) return
  if (document.querySelector('dialog[open]')) return
  const rows = [...list.querySelectorAll<HTMLElement>('tr.issue-row')]
  if (rows.length === 0) return
  event.preventDefault()
  const current = rows.indexOf((document.activeElement?.closest('tr.issue-row') as HTMLElement | null) ?? document.createElement('tr'))
  const next = current === -1 ? (event.key === 'j' ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, current + (event.key === 'j' ? 1 : -1)))
  rows[next]!.querySelector<HTMLElement>('.issue-link')?.focus()
}
