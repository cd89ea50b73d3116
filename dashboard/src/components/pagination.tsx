import { useLayoutEffect, useRef } from 'preact/hooks'
import type { PageMeta } from '../api/types.ts'
import { formatNumber } from '../lib/format.ts'
import { navigate, PAGE_SIZES } from '../state/url-state.ts'

/**
 * "Page x of N" with first, previous, a window of five pages, next and last, and the page-size choice. A
 * page change scrolls the list's top into view (issue 17 item 9: the pager sits under up to 200 rows); the
 * rows of the old page stay until the new ones arrive, so nothing jumps while it loads.
 */
export function Pagination({ meta }: { meta: PageMeta }) {
  const pages = Math.max(1, meta.pages)
  const scrollPending = useRef(false)
  const go = (page: number) => {
    scrollPending.current = true
    navigate({ page: Math.min(pages, Math.max(1, page)), issue: null })
    toListTop()
  }
  // Again once the new page is in: a shorter page may have clamped the first scroll, a longer one allows more.
  // A layout effect, before paint: a plain effect ran a frame later, so the new rows showed once at the
  // clamped position before jumping (and a CI run read that frame: the list's top at 78 px, not 56).
  useLayoutEffect(() => {
    if (!scrollPending.current) return
    scrollPending.current = false
    toListTop()
  }, [meta.page])
  const start = Math.max(1, Math.min(meta.page - 2, pages - 4))
  const window = Array.from({ length: Math.min(5, pages) }, (_, index) => start + index)
  const from = meta.total === 0 ? 0 : (meta.page - 1) * meta.limit + 1
  const to = Math.min(meta.total, meta.page * meta.limit)
  const edge = (label: string, page: number, disabled: boolean) => (
    // aria-disabled, not disabled: "Last" disabling itself under the focus would drop focus to <body>.
    <button type="button" class="button button-small button-ghost" aria-disabled={disabled} onClick={() => !disabled && go(page)}>
      {label}
    </button>
  )

  return (
    <nav class="pagination" aria-label="Pages">
      <span class="muted small page-range">
        {formatNumber(from)}–{formatNumber(to)} of {formatNumber(meta.total)}
      </span>
      <div class="page-buttons">
        {edge('First', 1, meta.page <= 1)}
        {edge('Previous', meta.page - 1, meta.page <= 1)}
        {window.map((page) => (
          <button
            key={page}
            type="button"
            class={page === meta.page ? 'button button-small page-current' : 'button button-small button-ghost page-number'}
            aria-current={page === meta.page ? 'page' : undefined}
            aria-label={`Page ${page}`}
            onClick={() => go(page)}
          >
            {formatNumber(page)}
          </button>
        ))}
        {edge('Next', meta.page + 1, meta.page >= pages)}
        {edge('Last', pages, meta.page >= pages)}
      </div>
      <span class="page-of" data-testid="page-of">
        Page {formatNumber(meta.page)} of {formatNumber(pages)}
      </span>
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

function toListTop(): void {
  document.getElementById('issues')?.scrollIntoView({ block: 'start' })
}
