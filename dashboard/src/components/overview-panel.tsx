import { useMemo, useState } from 'preact/hooks'
import type { Summary } from '../api/types.ts'
import { formatAge, formatHours, freshness } from '../lib/freshness.ts'
import { relativeTime, utcTitle } from '../lib/format.ts'
import { hasEvents, trendDays } from '../lib/trend-days.ts'
import { listDeploys } from '../api/endpoints.ts'
import { usePluginEnabled } from '../state/catalog.tsx'
import { readLocal, writeLocal } from '../state/local-store.ts'
import { useApi, type ApiState } from '../state/use-api.ts'
import { hrefFor, navigate, type ViewState } from '../state/url-state.ts'
import { BreakdownList } from './breakdown-list.tsx'
import { ErrorBanner } from './error-banner.tsx'
import { Icon } from './icon.tsx'
import { MetricStrip, StatusDistribution } from './metric-cards.tsx'
import { Skeleton } from './spinner.tsx'
import { TrendChart } from './trend-chart.tsx'

/** Whether the overview's details are unfolded, remembered in this browser. */
const OPEN_KEY = 'loupe.overview'
/** Used until `summary` answers (and by a worker older than `summary.dashboard`). */
const DEFAULT_STALE_AFTER_HOURS = 24

/**
 * The overview as a one-line strip above the issue list (issue 17 item 2: at 1024×768 the old overview pushed
 * every issue below the fold): the totals, when the last event arrived, a warning when nothing has arrived for
 * the configured while (item 10), and a toggle that unfolds the trend, the status distribution and the
 * severity and log-type breakdowns.
 */
export function OverviewPanel({ state, summary }: { state: ViewState; summary: ApiState<Summary> }) {
  const [open, setOpen] = useState(() => readLocal(OPEN_KEY) === 'open')
  const data = summary.data
  const staleAfter = data?.dashboard?.stale_after_hours ?? DEFAULT_STALE_AFTER_HOURS
  const lastEvent = data?.total.last_event ?? null
  const fresh = data ? freshness(lastEvent, staleAfter) : null
  const toggle = () => {
    writeLocal(OPEN_KEY, open ? null : 'open')
    setOpen(!open)
  }

  return (
    <section class="overview" aria-labelledby="overview-heading">
      <div class="overview-strip">
        {/* A disclosure heading (WAI-ARIA accordion pattern): the heading's button folds the details. */}
        <h1 id="overview-heading" class="overview-title">
          <button type="button" class="overview-toggle" aria-expanded={open} aria-controls="overview-details" onClick={toggle} title={open ? 'Hide the trend and breakdowns' : 'Show the trend and breakdowns'}>
            <Icon name="chevron" size={14} />
            Overview
          </button>
        </h1>
        {data ? <MetricStrip summary={data} state={state} /> : !summary.error && <div class="strip-skeleton" aria-busy="true"><Skeleton lines={1} height={14} /></div>}
        {data && (
          <p class="last-event" data-testid="last-event" title={utcTitle(lastEvent)}>
            {lastEvent ? `Last event ${relativeTime(lastEvent)}` : 'No events yet'}
          </p>
        )}
      </div>
      {fresh?.stale && (
        <div class="banner banner-warning stale-warning" role="status" data-testid="stale-warning">
          <Icon name="clock" />
          <p>
            <strong>Nothing has arrived for {formatAge(fresh.ageMs ?? 0)}</strong> (longer than {formatHours(staleAfter)}). Check that
            the application still sends its logs.{' '}
            <a href={hrefFor({ view: 'settings', tab: 'logs', issue: null })} onClick={(event) => { event.preventDefault(); navigate({ view: 'settings', tab: 'logs', issue: null }) }}>
              Upload or process logs
            </a>
          </p>
        </div>
      )}
      {summary.error && <ErrorBanner error={summary.error} onRetry={summary.reload} context="Overview unavailable" />}
      <div id="overview-details" class="overview-details" hidden={!open}>
        {open && data && <OverviewDetails data={data} state={state} />}
      </div>
    </section>
  )
}

function OverviewDetails({ data, state }: { data: Summary; state: ViewState }) {
  const trend = useMemo(() => trendDays(data), [data])
  // Deploy markers (issue 14), asked for only while release tracking is on.
  const releasesOn = usePluginEnabled('releases')
  const deploys = useApi(releasesOn ? `deploys:${state.app}` : null, listDeploys)
  return (
    <div class="overview-row">
      <section class="panel chart-panel" aria-labelledby="trend-heading">
        <h2 id="trend-heading" class="panel-title">Events per day <span class="muted small">last 30 days, UTC, ending today</span></h2>
        {data.trend.length > 0 ? (
          <>
            <TrendChart trend={trend} markers={deploys.data?.markers ?? []} selected={state.date} onSelect={(date) => navigate({ date, issue: null })} />
            {!hasEvents(trend) && <p class="muted small">No events in these 30 days{data.total.last_event ? ` — the last one arrived ${relativeTime(data.total.last_event)}` : ''}.</p>}
          </>
        ) : (
          <p class="muted small chart-empty">No events yet — the trend appears after the first import.</p>
        )}
      </section>
      <StatusDistribution summary={data} state={state} />
      <BreakdownList
        title="Severity"
        rows={data.severity.map((row) => ({ key: row.severity, label: row.severity, groups: Number(row.groups_count), events: Number(row.occurrences), className: `severity-fill-${row.severity.toLowerCase()}` }))}
        active={state.severity}
        onPick={(severity) => navigate({ severity, min_severity: '', issue: null })}
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
  )
}
