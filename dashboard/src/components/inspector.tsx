import { useEffect, useRef } from 'preact/hooks'
import { getGroup } from '../api/endpoints.ts'
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
import { StackView } from './stack-view.tsx'
import { StatusForm } from './status-form.tsx'
import { StatusHistory } from './status-history.tsx'
import { TagPicker } from './tag-picker.tsx'
import { TimelineBars } from './timeline-bars.tsx'
import { TrackerLinkSection } from './tracker-link-section.tsx'

/**
 * The issue inspector (`group&id=`), a panel beside the table: details, workflow (status, tags, assignee),
 * message and stack, occurrences with raw events, timeline and history. Escape closes it and focus goes
 * back to the issue's row.
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
  return (
    <aside class="inspector" aria-labelledby="inspector-title" data-testid="inspector">
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
            <StatusForm issueId={issue.id} current={issue.status} />
            <InspectorSection title="Tags" count={data.tags.length}>
              <TagPicker issueId={issue.id} attached={data.tags} />
              <AssigneePicker issueId={issue.id} assignedToId={issue.assigned_to_id} />
            </InspectorSection>
            <TrackerLinkSection issueId={issue.id} app={app} />
            <InspectorSection title="Details">
              <IssueFacts issue={issue} totalOccurrences={data.meta.total_occurrences} />
            </InspectorSection>
            <IssueReleases issueId={issueId} app={app} />
            {issue.sample_message && (
              <InspectorSection title="Message">
                {/* Focusable: it scrolls, and keyboard users must be able to scroll it (axe scrollable-region-focusable). */}
                <pre class="message" tabIndex={0} aria-label="Message">{issue.sample_message}</pre>
              </InspectorSection>
            )}
            {issue.sample_stack && (
              <InspectorSection title="Stack">
                <StackView stack={issue.sample_stack} />
              </InspectorSection>
            )}
            <EventDetails context={issue.sample_context ?? null} />
            {issue.sample_context && (
              <InspectorSection title="Context" open={false}>
                <pre class="context">{prettyJson(issue.sample_context)}</pre>
              </InspectorSection>
            )}
            <InspectorSection title="Occurrences" count={data.meta.total_occurrences}>
              <OccurrenceList occurrences={data.occurrences} total={data.meta.total_occurrences} />
            </InspectorSection>
            <InspectorSection title="Timeline">
              <TimelineBars timeline={data.timeline} />
            </InspectorSection>
            <InspectorSection title="Status history" count={data.status_history.length}>
              <StatusHistory rows={data.status_history} />
            </InspectorSection>
          </>
        )}
      </div>
    </aside>
  )
}
