import { getIssueValues } from '../api/endpoints.ts'
import { formatNumber } from '../lib/format.ts'
import { useApi } from '../state/use-api.ts'
import { ErrorBanner } from './error-banner.tsx'
import { Spinner } from './spinner.tsx'

const LABELS: Readonly<Record<string, string>> = { url: 'URL', user: 'User', ip: 'IP', environment: 'Environment', release: 'Release', server: 'Server' }

/**
 * The issue's value distribution per key (`issue-values`, issue 17 item 7, like Sentry's tag distribution):
 * each value's share of the occurrences that carried the key, `(other)` last.
 */
export function ValueBreakdown({ issueId, app }: { issueId: number; app: string }) {
  const values = useApi(`issue-values:${app}:${issueId}`, (signal) => getIssueValues(issueId, signal))
  if (values.error) return <ErrorBanner error={values.error} onRetry={values.reload} context="Breakdown unavailable" />
  if (!values.data) return <Spinner label="Loading the breakdown…" />
  if (values.data.data.length === 0) return <p class="muted small">No url, user, IP, environment, release or server recorded for this issue's events.</p>
  return (
    <div class="value-breakdown" data-testid="value-breakdown">
      {values.data.data.map((entry) => (
        <section key={entry.name} class="value-key" aria-label={LABELS[entry.name] ?? entry.name}>
          <h4>
            {LABELS[entry.name] ?? entry.name} <span class="muted small">{formatNumber(entry.total)}</span>
          </h4>
          <ul>
            {entry.values.map((value) => {
              const share = entry.total > 0 ? Math.round((value.count / entry.total) * 100) : 0
              return (
                <li key={value.value} class="value-row" data-value={value.value}>
                  <span class="value-bar" style={{ width: `${Math.max(2, share)}%` }} aria-hidden="true" />
                  <span class="value-label" title={value.value}>{value.value}</span>
                  <span class="value-count">
                    {formatNumber(value.count)} <span class="muted">({share}%)</span>
                  </span>
                </li>
              )
            })}
          </ul>
        </section>
      ))}
    </div>
  )
}
