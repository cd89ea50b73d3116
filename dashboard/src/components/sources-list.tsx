import { useEffect, useState } from 'preact/hooks'
import { listSources } from '../api/endpoints.ts'
import type { SourceFile } from '../api/types.ts'
import { basename, formatNumber, relativeTime, utcTitle } from '../lib/format.ts'
import { useApi } from '../state/use-api.ts'
import { navigate } from '../state/url-state.ts'

/**
 * The imported log files, newest first, 12 at a time with "Load more" (reference §7). Choosing one filters
 * the issue list to issues that occurred in it (`source` = the file's path). Each shows its module.
 */
export function SourcesList({ app, active }: { app: string; active: string }) {
  const [pages, setPages] = useState(1)
  const [extra, setExtra] = useState<SourceFile[]>([])
  const first = useApi(`sources:${app}`, (signal) => listSources(1, signal))
  useEffect(() => {
    setPages(1)
    setExtra([])
  }, [app, first.data])
  const [loadingMore, setLoadingMore] = useState(false)
  const [moreError, setMoreError] = useState('')

  const meta = first.data?.meta
  const files = [...(first.data?.data ?? []), ...extra]
  const loadMore = async () => {
    setLoadingMore(true)
    setMoreError('')
    try {
      const next = await listSources(pages + 1)
      setExtra((previous) => [...previous, ...next.data])
      setPages(pages + 1)
    } catch (error) {
      setMoreError(error instanceof Error ? error.message : String(error))
    } finally {
      setLoadingMore(false)
    }
  }

  return (
    <section class="sources" aria-labelledby="sources-heading">
      <h2 id="sources-heading" class="sidebar-label">
        Sources {meta ? <span class="muted">({formatNumber(meta.total)})</span> : null}
      </h2>
      {first.error && !first.data && (
        <p class="sidebar-note">
          Sources unavailable. <button type="button" class="link-button" onClick={first.reload}>Retry</button>
        </p>
      )}
      {first.data && files.length === 0 && <p class="sidebar-note">No log files imported yet.</p>}
      <ul class="source-list">
        {files.map((file) => (
          <li key={file.id}>
            <button
              type="button"
              class={active === file.path ? 'source-item active' : 'source-item'}
              aria-pressed={active === file.path}
              title={`${file.path}${file.module_name ? `\nModule ${file.module_name}` : ''}\nImported ${utcTitle(file.imported_at)}`}
              onClick={() => navigate({ view: 'issues', source: active === file.path ? '' : file.path, issue: null })}
            >
              <span class="dot" style={{ background: file.module_color ?? 'var(--muted)' }} aria-hidden="true" />
              <span class="source-name">{basename(file.path)}</span>
              <span class="source-meta">
                {/* Issue 17 item 14: which module a file belongs to (same-named logs of several modules). */}
                {file.module_name && <span class="source-module">{file.module_name} · </span>}
                {formatNumber(file.occurrence_count)} · {relativeTime(file.imported_at)}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {meta && files.length < meta.total && (
        <button type="button" class="button button-small button-ghost" onClick={loadMore} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
      {moreError && <p class="field-error">{moreError}</p>}
    </section>
  )
}
