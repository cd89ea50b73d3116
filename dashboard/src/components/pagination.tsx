import type { PageMeta } from '../api/types.ts'
import { formatNumber } from '../lib/format.ts'
import { navigate, PAGE_SIZES } from '../state/url-state.ts'

/** Page links (first, previous, a window around the current page, next, last) and the page-size choice. */
export function Pagination({ meta }: { meta: PageMeta }) {
  const pages = Math.max(1, meta.pages)
  const go = (page: number) => navigate({ page: Math.min(pages, Math.max(1, page)), issue: null })
  const start = Math.max(1, Math.min(meta.page - 2, pages - 4))
  const window = Array.from({ length: Math.min(5, pages) }, (_, index) => start + index)
  const from = meta.total === 0 ? 0 : (meta.page - 1) * meta.limit + 1
  const to = Math.min(meta.total, meta.page * meta.limit)

  return (
    <nav class="pagination" aria-label="Pages">
      <span class="muted small">
        {formatNumber(from)}–{formatNumber(to)} of {formatNumber(meta.total)}
      </span>
      <div class="page-buttons">
        <button type="button" class="button button-small button-ghost" onClick={() => go(meta.page - 1)} disabled={meta.page <= 1}>
          Previous
        </button>
        {window.map((page) => (
          <button
            key={page}
            type="button"
            class={page === meta.page ? 'button button-small page-current' : 'button button-small button-ghost'}
            aria-current={page === meta.page ? 'page' : undefined}
            aria-label={`Page ${page}`}
            onClick={() => go(page)}
          >
            {page}
          </button>
        ))}
        <button type="button" class="button button-small button-ghost" onClick={() => go(meta.page + 1)} disabled={meta.page >= pages}>
          Next
        </button>
      </div>
      <label class="page-size">
        <span>Per page</span>
        <select value={String(meta.limit)} onChange={(event) => navigate({ limit: Number(event.currentTarget.value), issue: null })}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={String(size)}>
              {size}
            </option>
          ))}
        </select>
      </label>
    </nav>
  )
}
