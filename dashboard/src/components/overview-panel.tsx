import { useMemo } from 'preact/hooks'
import type { Summary } from '../api/types.ts'
import { relativeTime, utcTitle } from '../lib/format.ts'
import { trendDays } from '../lib/trend-days.ts'
import { listDeploys } from '../api/endpoints.ts'
import { usePluginEnabled } from '../state/catalog.tsx'
import { useApi, type ApiState } from '../state/use-api.ts'
import { navigate, type ViewState } from '../state/url-state.ts'
import { BreakdownList } from './breakdown-list.tsx'
import { ErrorBanner } from './error-banner.tsx'
import { MetricCards } from './metric-cards.tsx'
import { Skeleton } from './spinner.tsx'
import { TrendChart } from './trend-chart.tsx'

/** "Error operations / Overview": metric cards, the daily trend, severity and log-type breakdowns. */
export function OverviewPanel({ state, summary }: { state: ViewState; summary: ApiState<Summary> }) {
  const trend = useMemo(() => (summary.data ? trendDays(summary.data) : null), [summary.data])
  const data = summary.data
  // Deploy markers (issue 14), asked for only while release tracking is on.
  const releasesOn = usePluginEnabled('releases')
  const deploys = useApi(releasesOn ? `deploys:${state.app}` : null, listDeploys)

  return (
    <section class="overview" aria-labelledby="overview-heading">
      <div class="page-heading">
        <div>
          <p class="eyebrow">Error operations</p>
          <h1 id="overview-heading">Overview</h1>
        </div>
        {data?.total.last_seen && (
          <p class="muted small" title={utcTitle(data.total.last_seen)}>
            Updated {relativeTime(data.total.last_seen)}
          </p>
        )}
      </div>
      {summary.error && <ErrorBanner error={summary.error} onRetry={summary.reload} context="Overview unavailable" />}
      {!data && !summary.error && (
        <div class="metric-grid" aria-busy="true">
          {[0, 1, 2, 3, 4].map((index) => (
            <div key={index} class="metric-card">
              <Skeleton lines={2} height={14} />
            </div>
          ))}
        </div>
      )}
      {data && (
        <>
          <MetricCards summary={data} state={state} />
          <div class="overview-row">
            <section class="panel chart-panel" aria-label="Daily trend">
              <h3 class="panel-title">Daily trend</h3>
              {trend && trend.days.length > 0 ? (
                <TrendChart trend={trend} markers={deploys.data?.markers ?? []} selected={state.date} onSelect={(date) => navigate({ date, issue: null })} />
              ) : (
                <p class="muted small chart-empty">No events yet — the trend appears after the first import.</p>
              )}
            </section>
            <BreakdownList
              title="Severity"
              rows={data.severity.map((row) => ({ key: row.severity, label: row.severity, groups: Number(row.groups_count), events: Number(row.occurrences), className: `severity-fill-${row.severity.toLowerCase()}` }))}
              active={state.severity}
              onPick={(severity) => navigate({ severity, issue: null })}
              emptyText="No issues yet."
            />
            <BreakdownList
              title="Log types"
              rows={data.types.map((row) => ({ key: row.log_type, label: row.log_type, groups: Number(row.groups_count), events: Number(row.occurrences) }))}
              active={state.log_type}
              onPick={(logType) => navigate({ log_type: logType, issue: null })}
              emptyText="No log types yet."
            />
          </div>
        </>
      )}
    </section>
  )
}
