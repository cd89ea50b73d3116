import { getIssueReleases } from '../api/endpoints.ts'
import { usePluginEnabled } from '../state/catalog.tsx'
import { useApi } from '../state/use-api.ts'
import { InspectorSection } from './inspector-section.tsx'

/**
 * The inspector's Releases section (issue 14): the release the issue was first seen in and the one it
 * regressed in, every release its occurrences named, and "View source" to the code host. Asked for only
 * while the releases plugin is on, and shown when the issue has a release or a link.
 */
export function IssueReleases({ issueId, app }: { issueId: number; app: string }) {
  const enabled = usePluginEnabled('releases')
  const releases = useApi(enabled ? `issue-releases:${app}:${issueId}` : null, (signal) => getIssueReleases(issueId, signal))
  const data = releases.data
  if (!data || (data.releases.length === 0 && data.source_link === null)) return null
  return (
    <InspectorSection title="Releases" count={data.releases.length}>
      <div data-testid="issue-releases">
        {data.source_link && (
          <p>
            <a class="button button-small" href={data.source_link} target="_blank" rel="noopener noreferrer">View source</a>
          </p>
        )}
        <dl class="facts">
          {data.introduced_in && (
            <>
              <dt>First seen in</dt>
              <dd>{data.introduced_in}</dd>
            </>
          )}
          {data.regressed_in && (
            <>
              <dt>Regressed in</dt>
              <dd>{data.regressed_in}</dd>
            </>
          )}
          {data.last_release && (
            <>
              <dt>Latest release</dt>
              <dd>{data.last_release}</dd>
            </>
          )}
        </dl>
        {data.releases.length > 0 && (
          <ul class="release-occurrences">
            {data.releases.map((release) => (
              <li key={release.release}>
                <strong>{release.release}</strong>{' '}
                <span class="muted small">
                  {release.occurrences} {release.occurrences === 1 ? 'occurrence' : 'occurrences'} · {release.first_seen} – {release.last_seen}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </InspectorSection>
  )
}
