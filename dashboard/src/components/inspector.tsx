import { useEffect, useRef } from 'preact/hooks'
import { getGroup } from '../api/endpoints.ts'
import { messageBeyondTitle } from '../lib/issue-message.ts'
import { prettyJson } from '../lib/stack.ts'
import { useApi } from '../state/use-api.ts'
import { navigate } from '../state/url-state.ts'
import { AssigneePicker } from './assignee-picker.tsx'
import { SeverityBadge, StatusBadge } from './badges.tsx'
import { ErrorBanner } from './error-banner.tsx'
import { EventDetails } from './event-details.tsx'
import { Icon } from './icon.tsx'
import { InspectorSection } from './inspector-section.tsx'
import { IssueFacts } from './issue-facts.tsx'
import { IssueReleases } from './issue-releases.tsx'
import { OccurrenceList } from './occurrence-list.tsx'
import { Skeleton } from './spinner.tsx'
import { StackView, type CulpritSource } from './stack-view.tsx'
import { StatusForm } from './status-form.tsx'
import { StatusHistory } from './status-history.tsx'
import { TagPicker } from './tag-picker.tsx'
import { TimelineBars } from './timeline-bars.tsx'
import { TrackerLinkSection } from './tracker-link-section.tsx'
import { ValueBreakdown } from './value-breakdown.tsx'

/**
 * The issue page (`group&id=`), a panel beside the table, in the order of issue 17 item 5: the header (class,
 * culprit, counts, first/last seen, a small chart, the release), the actions in a compact bar, then the stack,
 * the occurrences (paged) and the value breakdown; details, history and the raw context below. Escape
 * closes it and focus goes back to the issue's row.
 */
export function Inspector({ issueId, app }: { issueId: number; app: string }) {
  const detail = useApi(`group:${app}:${issueId}`, (signal) => getGroup(issueId, signal))
  const heading = useRef<HTMLHeadingElement>(null)
  const close = () => navigate({ issue: null })

  useEffect(() => {
    heading.current?.focus()
    return () => {
      // Back to the row the inspector was opened from (if it is still on screen).
      document.querySelector<HTMLElement>(`tr[data-issue-id="${issueId}"] .issue-link`)?.focus()
    }
  }, [issueId])

  const data = detail.data
  const issue = data?.group.id === issueId ? data.group : undefined
  const context = parseContext(issue?.sample_context ?? null)
  const release = data?.occurrences.find((occurrence) => occurrence.release)?.release ?? (typeof context?.release === 'string' ? context.release : null)
  const message = issue ? messageBeyondTitle(issue.sample_message, issue.title) : null
  return (
    <aside class="inspector issue-page" aria-labelledby="inspector-title" data-testid="inspector">
      <header class="inspector-header">
        <div class="inspector-badges">
          {issue && <SeverityBadge severity={issue.severity} />}
          {issue && <StatusBadge status={issue.status} />}
          <span class="muted small">#{issueId}</span>
        </div>
        <button type="button" class="icon-button" onClick={close} aria-label="Close inspector (Escape)">
          <Icon name="close" />
        </button>
      </header>
      <h2 id="inspector-title" ref={heading} tabIndex={-1} class="inspector-title">
        {issue ? issue.title : detail.error ? 'Issue unavailable' : 'Loading issue…'}
      </h2>
      <div class="inspector-body">
        {detail.error && <ErrorBanner error={detail.error} onRetry={detail.reload} />}
        {!issue && !detail.error && <Skeleton lines={6} />}
        {issue && data && (
          <>
            <section class="issue-head" aria-label="Summary" data-testid="issue-head">
              <IssueFacts issue={issue} totalOccurrences={data.meta.total_occurrences} release={release} />
              <div class="issue-chart">
                <TimelineBars timeline={data.timeline} />
              </div>
            </section>
            <section class="issue-actions" aria-label="Actions" data-testid="issue-actions">
              <StatusForm issueId={issue.id} current={issue.status} />
              <AssigneePicker issueId={issue.id} assignedToId={issue.assigned_to_id} />
              <details class="issue-tags">
                <summary>
                  Tags <span class="count-pill">{data.tags.length}</span>
                  {data.tags.length > 0 && <span class="muted small"> {data.tags.map((tag) => tag.name).join(', ')}</span>}
                </summary>
                <TagPicker issueId={issue.id} attached={data.tags} />
              </details>
            </section>
            {message && (
              <InspectorSection title="Message">
                {/* Focusable: it scrolls, and keyboard users must be able to scroll it (axe scrollable-region-focusable). */}
                <pre class="message" tabIndex={0} aria-label="Message">{message}</pre>
              </InspectorSection>
            )}
            {issue.sample_stack && (
              <InspectorSection title="Stack">
                <StackView stack={issue.sample_stack} culprit={issue.source_frame} culpritSource={culpritSource(context)} />
              </InspectorSection>
            )}
            <InspectorSection title="Occurrences" count={data.meta.total_occurrences}>
              <OccurrenceList issueId={issue.id} occurrences={data.occurrences} total={data.meta.total_occurrences} />
            </InspectorSection>
            <InspectorSection title="Breakdown">
              <ValueBreakdown issueId={issue.id} app={app} />
            </InspectorSection>
            <EventDetails context={issue.sample_context ?? null} />
            <IssueReleases issueId={issueId} app={app} />
            <TrackerLinkSection issueId={issue.id} app={app} />
            <InspectorSection title="Status history" count={data.status_history.length}>
              <StatusHistory rows={data.status_history} />
            </InspectorSection>
            {issue.sample_context && (
              <InspectorSection title="Context" open={false}>
                <pre class="context">{prettyJson(issue.sample_context)}</pre>
              </InspectorSection>
            )}
          </>
        )}
      </div>
    </aside>
  )
}

function parseContext(text: string | null): Record<string, unknown> | null {
  if (!text) return null
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** Sentry's source lines around the culprit (`culprit_source`: pre, line, post), when the event sent them. */
function culpritSource(context: Record<string, unknown> | null): CulpritSource | null {
  const source = context?.culprit_source
  if (typeof source !== 'object' || source === null) return null
  const { pre, line, post } = source as Record<string, unknown>
  if (typeof line !== 'string') return null
  const lines = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [])
  return { pre: lines(pre), line, post: lines(post) }
}
