import type { ComponentChildren } from 'preact'
import type { GroupDetail } from '../api/types.ts'
import { formatNumber, humanize, relativeTime, utcTitle } from '../lib/format.ts'
import { navigate } from '../state/url-state.ts'
import { ModuleChip } from './badges.tsx'

/**
 * The issue's facts as a definition list, the head of the issue page (issue 17 item 5): class, culprit,
 * counts, first/last seen and the latest release first. The culprit frame is a button that searches for it
 * (reference §7).
 */
export function IssueFacts({ issue, totalOccurrences, release = null }: { issue: GroupDetail['group']; totalOccurrences: number; release?: string | null }) {
  const rows: [string, ComponentChildren][] = [
    ['Events', `${formatNumber(issue.count)}${totalOccurrences !== issue.count ? ` (${formatNumber(totalOccurrences)} stored)` : ''}`],
    ['First seen', <time title={utcTitle(issue.first_seen)}>{issue.first_seen} <span class="muted">({relativeTime(issue.first_seen)})</span></time>],
    ['Last seen', <time title={utcTitle(issue.last_seen)}>{issue.last_seen} <span class="muted">({relativeTime(issue.last_seen)})</span></time>],
    ['Exception', issue.exception_class ? <code>{issue.exception_class}</code> : null],
    [
      'Culprit',
      issue.source_frame ? (
        <button type="button" class="link-button code" title="Search issues for this frame" onClick={() => navigate({ q: issue.source_frame ?? '', issue: null })}>
          {issue.source_frame}
        </button>
      ) : null,
    ],
    ['Release', release],
    ['Module', issue.module_name ? <ModuleChip name={issue.module_name} color={issue.module_color} /> : null],
    ['Environment', issue.environment],
    ['Assignee', issue.assigned_to_label ?? issue.assignee],
    ['External', issue.external_url ? <a href={issue.external_url} target="_blank" rel="noopener noreferrer">{issue.external_id ?? issue.external_url}</a> : null],
  ]
  // Secondary facts, folded under "More details" so the head stays short (issue 17 item 5).
  const more: [string, ComponentChildren][] = [
    ['Log type', issue.log_type],
    ['Channel', issue.channel],
    ['Origin', humanize(issue.origin)],
    ['Kind', humanize(issue.kind)],
    ['Fingerprint', <code class="fingerprint" title={issue.fingerprint}>{issue.fingerprint.slice(0, 16)}…</code>],
  ]
  return (
    <div class="issue-facts">
      <FactList className="facts" rows={rows} />
      <details class="more-facts">
        <summary>More details</summary>
        <FactList className="facts-more" rows={more} />
      </details>
    </div>
  )
}

function FactList({ className, rows }: { className: string; rows: [string, ComponentChildren][] }) {
  return (
    <dl class={className}>
      {rows
        .filter(([, value]) => value !== null && value !== undefined && value !== '')
        .map(([label, value]) => (
          <div key={label} class="fact">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  )
}
