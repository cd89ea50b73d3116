import { ApiError } from '../api/api-error.ts'
import { getReleaseSettings, listDeploys, listReleases, listSourceMaps } from '../api/endpoints.ts'
import type { SourceMapRow } from '../../../shared/schemas/releases.ts'
import { useApi } from '../state/use-api.ts'
import { navigate } from '../state/url-state.ts'
import { DeploysSection, ReleaseSettingsSection, SourceMapActions } from './release-sections.tsx'
import { ErrorBanner } from './error-banner.tsx'
import { Spinner } from './spinner.tsx'
import { formatBytes } from '../lib/format.ts'

/**
 * Settings → Releases (issue 14, docs/releases.md): every release with its issues — new in it and regressed
 * in it — its maps and deploys; the deploy list with "Record deploy"; the code-host link template; the
 * uploaded source maps. While the plugin is off the panel says so and links to Plugins.
 */
export function ReleasesPanel({ app }: { app: string }) {
  const releases = useApi(`releases:${app}`, listReleases)
  const deploys = useApi(releases.data ? `deploys:${app}` : null, listDeploys)
  const settings = useApi(releases.data ? `release-settings:${app}` : null, getReleaseSettings)
  const maps = useApi(releases.data ? `source-maps:${app}` : null, listSourceMaps)

  if (releases.error instanceof ApiError && releases.error.status === 404) {
    return (
      <section class="panel settings-panel" aria-labelledby="releases-heading">
        <h2 id="releases-heading" class="panel-title">Releases</h2>
        <p class="muted">Release tracking is off for this application.</p>
        <button type="button" class="button button-primary" onClick={() => navigate({ tab: 'plugins' })}>
          Switch it on in Plugins
        </button>
      </section>
    )
  }
  const failed = releases.error ?? deploys.error ?? settings.error ?? maps.error
  if (failed) return <ErrorBanner error={failed} onRetry={() => [releases, deploys, settings, maps].forEach((state) => state.reload())} context="Release tracking unavailable" />
  if (!releases.data || !deploys.data || !settings.data || !maps.data) return <Spinner />
  return (
    <>
      <section class="panel settings-panel" aria-labelledby="releases-heading" data-testid="release-list">
        <h2 id="releases-heading" class="panel-title">Releases</h2>
        {releases.data.data.length === 0 ? (
          <p class="muted">No release yet. Events that name a release, deploys and source-map uploads add one.</p>
        ) : (
          <div class="table-wrap">
            <table class="simple-table">
              <thead>
                <tr>
                  <th scope="col">Release</th>
                  <th scope="col">Last seen (UTC)</th>
                  <th scope="col">Issues</th>
                  <th scope="col">New</th>
                  <th scope="col">Regressed</th>
                  <th scope="col">Maps</th>
                  <th scope="col">Deployed (UTC)</th>
                </tr>
              </thead>
              <tbody>
                {releases.data.data.map((release) => (
                  <tr key={release.version} data-release={release.version}>
                    <th scope="row">{release.version}</th>
                    <td class="muted small">{release.last_seen ?? '—'}</td>
                    <td>{release.issue_count}</td>
                    <td>{release.new_issues}</td>
                    <td>{release.regressed_issues}</td>
                    <td>{release.source_maps}</td>
                    <td class="muted small">{release.deployed_at ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <DeploysSection deploys={deploys.data.data} />
      <ReleaseSettingsSection settings={settings.data} />
      <section class="panel settings-panel" aria-labelledby="source-maps-heading" data-testid="source-maps">
        <h2 id="source-maps-heading" class="panel-title">Source maps</h2>
        <p class="muted">Upload with <code>sentry-cli sourcemaps upload --release &lt;version&gt;</code> or <code>POST ?api=source-maps</code> (docs/releases.md).</p>
        {maps.data.data.length === 0 ? (
          <p class="muted">No source map uploaded.</p>
        ) : (
          <ul class="plugin-list">
            {maps.data.data.map((map) => (
              <li key={map.id} class="plugin-item" data-map={map.file}>
                <div class="plugin-text">
                  <strong>{map.file}</strong> <span class="badge badge-muted">{map.release}</span>
                  <p class="muted small">{formatBytes(map.size)} · {map.created_at}</p>
                </div>
                <SourceMapActions map={map satisfies SourceMapRow} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  )
}
