import { useState } from 'preact/hooks'
import { ACCESS_DAYS } from '../../../shared/schemas/access-analytics.ts'
import { ApiError } from '../api/api-error.ts'
import { getAccessAnalytics } from '../api/endpoints.ts'
import { AccessDayChart } from '../components/access-day-chart.tsx'
import { EmptyState } from '../components/empty-state.tsx'
import { ErrorBanner } from '../components/error-banner.tsx'
import { RankList } from '../components/rank-list.tsx'
import { Spinner } from '../components/spinner.tsx'
import { formatNumber } from '../lib/format.ts'
import { useApi } from '../state/use-api.ts'
import { navigate } from '../state/url-state.ts'

const WINDOWS = [7, 30, 90] as const

/** A path or agent as the log had it; the empty ones are requests without a request line (probes). */
const shown = (value: string) => (value === '' ? '(no request line)' : value)

/**
 * Analytics (issue 14, reference §4.6, docs/access-analytics.md): requests and errors per day, status classes,
 * busiest and failing paths, methods and user agents of the imported access logs — every line, whatever the
 * severity allow-list stored as issues. While the plugin is off the page says so and links to Plugins.
 */
export function AccessAnalyticsPage({ app }: { app: string }) {
  const [days, setDays] = useState<number>(ACCESS_DAYS.fallback)
  const analytics = useApi(`access-analytics:${app}:${days}`, (signal) => getAccessAnalytics(days, signal))

  let body
  if (analytics.error instanceof ApiError && analytics.error.status === 404) {
    body = (
      <EmptyState title="Access-log analytics is off for this application." icon="chart">
        <button type="button" class="button button-primary" onClick={() => navigate({ view: 'settings', tab: 'plugins' })}>
          Switch it on in Plugins
        </button>
      </EmptyState>
    )
  } else if (analytics.error) {
    body = <ErrorBanner error={analytics.error} onRetry={analytics.reload} context="Analytics unavailable" />
  } else if (!analytics.data) {
    body = <Spinner />
  } else if (analytics.data.total === 0) {
    body = (
      <EmptyState title={`No access-log lines in the last ${analytics.data.window_days} days.`} icon="chart">
        <p>Import an nginx or Apache access log (combined format) under Settings → Logs; every line is counted, whatever severities are kept as issues.</p>
      </EmptyState>
    )
  } else {
    const a = analytics.data
    const errors = a.status_classes.filter((row) => row.class === '4xx' || row.class === '5xx').reduce((sum, row) => sum + row.count, 0)
    body = (
      <>
        <div class="analytics-cards">
          <Card label="Requests" value={formatNumber(a.total)} testId="access-total" />
          <Card label="Errors (4xx, 5xx)" value={formatNumber(errors)} testId="access-errors" tone="danger" />
          <Card label="Error rate" value={`${(a.error_rate * 100).toFixed(2)} %`} testId="access-error-rate" tone={a.error_rate > 0 ? 'danger' : undefined} />
          <Card label="Unique paths" value={formatNumber(a.unique_paths)} testId="access-unique-paths" />
        </div>
        <AccessDayChart analytics={a} />
        <div class="analytics-grid">
          <RankList title="Status classes" testId="access-classes" emptyText="No requests." rows={a.status_classes.map((row) => ({ label: row.class, count: row.count }))} />
          <RankList title="Methods" testId="access-methods" emptyText="No requests." rows={a.methods.map((row) => ({ label: row.method || '(none)', count: row.count }))} />
          <RankList title="Top paths" testId="access-top-paths" emptyText="No requests." countTitle="requests, and how many failed" rows={a.top_paths.map((row) => ({ label: shown(row.path), count: row.count, errors: row.errors }))} />
          <RankList title="Error paths" testId="access-error-paths" emptyText="No failing requests." rows={a.error_paths.map((row) => ({ label: shown(row.path), count: row.errors }))} />
          <RankList title="User agents" testId="access-agents" emptyText="No requests." rows={a.top_agents.map((row) => ({ label: shown(row.agent), count: row.count }))} />
        </div>
      </>
    )
  }

  return (
    <div class="analytics-page">
      <div class="page-heading">
        <div>
          <p class="eyebrow">Access logs</p>
          <h1>Access analytics</h1>
        </div>
        <div class="days-picker" role="group" aria-label="Window">
          {WINDOWS.map((value) => (
            <button key={value} type="button" class={value === days ? 'button button-small button-primary' : 'button button-small'} aria-pressed={value === days} onClick={() => setDays(value)}>
              {value} days
            </button>
          ))}
        </div>
      </div>
      {body}
    </div>
  )
}

function Card({ label, value, testId, tone }: { label: string; value: string; testId: string; tone?: 'danger' }) {
  return (
    <div class="metric-card" data-testid={testId}>
      <span class="metric-label">{label}</span>
      <span class={tone ? `metric-value tone-${tone}` : 'metric-value'}>{value}</span>
    </div>
  )
}
