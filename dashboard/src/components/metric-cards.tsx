import { STATUS_SUMMARY_ORDER } from '../../../shared/constants.ts'
import type { Summary } from '../api/types.ts'
import { formatNumber, humanize } from '../lib/format.ts'
import { ERROR_SEVERITIES } from '../lib/trend-days.ts'
import { navigate, type ViewState } from '../state/url-state.ts'

/**
 * The overview's figures on one line (issue 17 item 2: the list comes first, the overview is a strip):
 * indexed events, issue groups, error events (ERROR and worse) and warnings. The error and warning figures are
 * toggles that filter the list — errors by `min_severity=ERROR`, which is what the figure counts.
 */
export function MetricStrip({ summary, state }: { summary: Summary; state: ViewState }) {
  const occurrences = (severities: (severity: string) => boolean) =>
    summary.severity.filter((row) => severities(row.severity)).reduce((sum, row) => sum + Number(row.occurrences), 0)
  const errors = occurrences((severity) => ERROR_SEVERITIES.has(severity))
  const warnings = occurrences((severity) => severity === 'WARNING')
  const errorsOn = state.min_severity === 'ERROR'
  const warningsOn = state.severity === 'WARNING'
  return (
    <ul class="metric-strip" aria-label="Totals">
      <li class="metric" data-testid="metric-events">
        <strong>{formatNumber(summary.total.occurrences)}</strong> events
      </li>
      <li class="metric" data-testid="metric-groups">
        <strong>{formatNumber(summary.total.groups_count)}</strong> issue groups
      </li>
      <li>
        <button
          type="button"
          class={errorsOn ? 'metric metric-toggle tone-danger active' : 'metric metric-toggle tone-danger'}
          aria-pressed={errorsOn}
          title="ERROR, CRITICAL, ALERT and EMERGENCY events. Click to show the issues of ERROR and worse."
          onClick={() => navigate({ min_severity: errorsOn ? '' : 'ERROR', severity: '', issue: null })}
          data-testid="metric-errors"
        >
          <strong>{formatNumber(errors)}</strong> error events
        </button>
      </li>
      <li>
        <button
          type="button"
          class={warningsOn ? 'metric metric-toggle tone-warning active' : 'metric metric-toggle tone-warning'}
          aria-pressed={warningsOn}
          title="Click to show WARNING issues."
          onClick={() => navigate({ severity: warningsOn ? '' : 'WARNING', min_severity: '', issue: null })}
          data-testid="metric-warnings"
        >
          <strong>{formatNumber(warnings)}</strong> warnings
        </button>
      </li>
    </ul>
  )
}

/** Issues per status as a bar and a toggle per status (reference §7 "status distribution"). */
export function StatusDistribution({ summary, state }: { summary: Summary; state: ViewState }) {
  const statusTotal = summary.status.reduce((sum, row) => sum + Number(row.groups_count), 0)
  const byStatus = new Map(summary.status.map((row) => [row.status, Number(row.groups_count)]))
  return (
    <section class="panel metric-status" data-testid="metric-status" aria-labelledby="status-distribution-heading">
      <h2 id="status-distribution-heading" class="panel-title">Status distribution</h2>
      <div class="status-bar" aria-hidden="true">
        {STATUS_SUMMARY_ORDER.map((status) => {
          const count = byStatus.get(status) ?? 0
          return count ? <span key={status} class={`status-fill status-${status}`} style={{ flexGrow: count }} /> : null
        })}
        {statusTotal === 0 && <span class="status-fill" style={{ flexGrow: 1 }} />}
      </div>
      <div class="status-chips">
        {STATUS_SUMMARY_ORDER.map((status) => (
          <button
            key={status}
            type="button"
            class={state.status === status ? 'status-chip active' : 'status-chip'}
            aria-pressed={state.status === status}
            onClick={() => navigate({ status: state.status === status ? '' : status, issue: null })}
          >
            <span class={`dot status-dot-${status}`} aria-hidden="true" />
            {humanize(status)} <strong>{formatNumber(byStatus.get(status) ?? 0)}</strong>
          </button>
        ))}
      </div>
    </section>
  )
}
