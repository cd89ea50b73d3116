import { getSummary, listGroups } from '../api/endpoints.ts'
import { FilterBar } from '../components/filter-bar.tsx'
import { IssueList } from '../components/issue-list.tsx'
import { OverviewPanel } from '../components/overview-panel.tsx'
import { useApi } from '../state/use-api.ts'
import type { ViewState } from '../state/url-state.ts'

/** Overview, filters and the issue table; the inspector opens beside it (app.tsx). */
export function IssuesPage({ state }: { state: ViewState }) {
  const query = {
    q: state.q.trim(), severity: state.severity, min_severity: state.min_severity, date: state.date, sort: state.sort, status: state.status, tag: state.tag,
    log_type: state.log_type, kind: state.kind, module: state.module, source: state.source, page: state.page, limit: state.limit,
    // Slim rows (issue 17 item 4): the list shows no samples; the inspector reads them from `group`.
    include_stack: 0, include_context: 0,
  }
  const listKey = `${state.app}|${JSON.stringify(query)}`
  const groups = useApi(`groups:${listKey}`, (signal) => listGroups(query, signal))
  const summary = useApi(`summary:${state.app}`, getSummary)
  return (
    <div class="issues-page">
      <OverviewPanel state={state} summary={summary} />
      <FilterBar state={state} summary={summary.data} total={groups.data?.meta.total} />
      <IssueList state={state} groups={groups} listKey={listKey} />
    </div>
  )
}
