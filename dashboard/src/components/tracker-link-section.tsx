import { TRACKER_NAMES } from '../../../shared/schemas/tracker.ts'
import { getTrackerIssue, getTrackerSettings, pushTrackerIssue } from '../api/endpoints.ts'
import { useApi } from '../state/use-api.ts'
import { useMutation } from '../state/use-mutation.ts'
import { InspectorSection } from './inspector-section.tsx'

/**
 * The inspector's tracker section (issue 16): the linked Linear/GitHub issue with its state, or "Create … issue"
 * when the integration is enabled. Nothing while the plugin is off (its endpoints answer 404).
 */
export function TrackerLinkSection({ issueId, app }: { issueId: number; app: string }) {
  const link = useApi(`tracker-issue:${app}:${issueId}`, (signal) => getTrackerIssue(issueId, signal))
  const settings = useApi(link.data && !link.data.link ? `tracker-settings:${app}` : null, getTrackerSettings)
  const { busy, run } = useMutation()
  if (!link.data || link.data.id !== issueId) return null
  const linked = link.data.link
  if (!linked && !settings.data?.enabled) return null
  const name = TRACKER_NAMES[linked?.provider ?? settings.data!.provider]
  const create = () => run(() => pushTrackerIssue(issueId), { done: (answer) => `Created ${name} issue ${answer.link?.identifier ?? ''}`.trim(), failure: `Could not create the ${name} issue` })
  return (
    <InspectorSection title={name}>
      {linked ? (
        <p class="small" data-testid="tracker-link">
          <a href={linked.url} target="_blank" rel="noopener noreferrer">{linked.identifier}</a>
          {linked.state && <span class="badge badge-muted">{linked.state}</span>}{' '}
          <span class="muted">{linked.via === 'push' ? 'created from Loupe' : `mirrored from ${name}`}</span>
        </p>
      ) : (
        <button type="button" class="button button-small" disabled={busy} onClick={() => void create()}>{busy ? 'Creating…' : `Create ${name} issue`}</button>
      )}
    </InspectorSection>
  )
}
