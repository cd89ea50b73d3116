import { STATUS_SUMMARY_ORDER } from '../../../shared/constants.ts'
import type { Summary } from '../api/types.ts'
import { formatNumber, humanize } from '../lib/format.ts'
import { ERROR_SEVERITIES } from '../lib/trend-days.ts'
import { navigate, type ViewState } from '../state/url-state.ts'

/**
 * Indexed events, unique issue groups, error events (ERROR and worse), warnings, and the status
 * distribution (reference §7). The error/warning cards and each status filter the list when clicked.
 */
export function MetricCards({ summary, state }: { summary: Summary; state: ViewState }) {
  const occurrences = (severities: (severity: string) => boolean) =>
    summary.severity.filter((row) => severities(row.severity)).reduce((sum, row) => sum + Number(row.occurrences), 0)
  const errors = occurrences((severity) => ERROR_SEVERITIES.has(severity))
  const warnings = occurrences((severity) => severity === 'WARNING')
  const statusTotal = summary.status.reduce((sum, row) => sum + Number(row.groups_count), 0)
  const byStatus = new Map(summary.status.map((row) => [row.status, Number(row.groups_count)]))

  return (
    <div class="metric-grid">
      <Card label="Indexed events" value={summary.total.occurrences} testId="metric-events" />
      <Card label="Unique issue groups" value={summary.total.groups_count} testId="metric-groups" />
      <Card
        label="Error events"
        value={errors}
        testId="metric-errors"
        tone="danger"
        active={state.severity === 'ERROR'}
        onClick={() => navigate({ severity: state.severity === 'ERROR' ? '' : 'ERROR', issue: null })}
        title="ERROR, CRITICAL, ALERT and EMERGENCY events. Click to show ERROR issues."
      />
      <Card
        label="Warnings"
        value={warnings}
        testId="metric-warnings"
        tone="warning"
        active={state.severity === 'WARNING'}
        onClick={() => navigate({ severity: state.severity === 'WARNING' ? '' : 'WARNING', issue: null })}
        title="Click to show WARNING issues."
      />
      <div class="metric-card metric-status" data-testid="metric-status">
        <span class="metric-label">Status distribution</span>
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
      </div>
    </div>
  )
}

function Card({ label, value, tone, onClick, active, title, testId }: {
  label: string
  value: number
  tone?: 'danger' | 'warning'
  onClick?: () => void
  active?: boolean
  title?: string
  testId: string
}) {
  const body = (
    <>
      <span class="metric-label">{label}</span>
      <span class={tone ? `metric-value tone-${tone}` : 'metric-value'}>{formatNumber(value)}</span>
    </>
  )
  if (!onClick) return <div class="metric-card" data-testid={testId}>{body}</div>
  return (
    <button type="button" class={active ? 'metric-card clickable active' : 'metric-card clickable'} aria-pressed={active} title={title} onClick={onClick} data-testid={testId}>
      {body}
    </button>
  )
}
