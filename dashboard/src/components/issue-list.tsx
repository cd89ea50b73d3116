import { useEffect, useState } from 'preact/hooks'
import type { GroupsPage } from '../api/types.ts'
import { issuesToCsv, downloadText } from '../lib/csv.ts'
import type { ApiState } from '../state/use-api.ts'
import { FILTER_KEYS, navigate, type ViewState } from '../state/url-state.ts'
import { BulkBar } from './bulk-bar.tsx'
import { EmptyState } from './empty-state.tsx'
import { ErrorBanner } from './error-banner.tsx'
import { Icon } from './icon.tsx'
import { IssueTable } from './issue-table.tsx'
import { Pagination } from './pagination.tsx'
import { Skeleton } from './spinner.tsx'

/** The issue table with its toolbar (CSV export), selection and bulk bar, pagination and every state. */
export function IssueList({ state, groups, listKey }: { state: ViewState; groups: ApiState<GroupsPage>; listKey: string }) {
  const [selected, setSelected] = useState<Set<number>>(new Set())
  // A different list (filters, page, app) starts with nothing selected.
  useEffect(() => setSelected(new Set()), [listKey])

  const page = groups.data
  const filtered = FILTER_KEYS.some((key) => state[key] !== '')
  const exportCsv = () => {
    if (!page) return
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')
    downloadText(`loupe-issues-${state.app || 'default'}-p${page.meta.page}-${stamp}.csv`, issuesToCsv(page.items))
  }

  return (
    <section class="issue-list panel" aria-labelledby="issues-heading" aria-busy={groups.loading}>
      <div class="list-toolbar">
        <h2 id="issues-heading" class="panel-title">
          Issues {groups.loading && page && <span class="loading-dot" aria-hidden="true" />}
        </h2>
        <button type="button" class="button button-small button-ghost" onClick={exportCsv} disabled={!page || page.items.length === 0}>
          <Icon name="download" />
          Export CSV
        </button>
      </div>
      {selected.size > 0 && <BulkBar ids={[...selected]} items={page?.items} onDone={() => setSelected(new Set())} onClear={() => setSelected(new Set())} />}
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
          <IssueTable items={page.items} selected={selected} onSelect={setSelected} openId={state.issue} />
          <Pagination meta={page.meta} />
        </>
      )}
    </section>
  )
}
