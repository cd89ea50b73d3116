import { useEffect, useRef, useState } from 'preact/hooks'
import { ISSUE_STATUSES, type IssueStatus } from '../../../shared/constants.ts'
import type { IssueListItem } from '../api/types.ts'
import { humanize } from '../lib/format.ts'
import { navigate } from '../state/url-state.ts'

/**
 * A row's actions as a menu button (issue 17 item 1: on a phone each card keeps its actions in a menu; the
 * table shows the same button in its last column). WAI-ARIA menu button pattern: Enter/Space/ArrowDown open it
 * on the first item, arrows move, Escape closes it and returns focus to the button. After an action focus
 * is back on the button, so a status change never drops focus to <body> (issue 17 item 12).
 */
export function RowActions({ item, selected, busy, onToggle, onStatus }: {
  item: IssueListItem
  selected: boolean
  busy: boolean
  onToggle: (id: number, shift: boolean) => void
  onStatus: (id: number, status: IssueStatus) => void
}) {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  const menuId = `row-actions-${item.id}`

  const items = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])]
  const close = (refocus: boolean) => {
    setOpen(false)
    if (refocus) button.current?.focus()
  }

  useEffect(() => {
    if (!open) return
    items()[0]?.focus()
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointer)
    return () => document.removeEventListener('pointerdown', onPointer)
  }, [open])

  const onMenuKey = (event: KeyboardEvent) => {
    const list = items()
    const index = list.indexOf(document.activeElement as HTMLButtonElement)
    if (event.key === 'Escape') {
      // Handled here: the app-wide Escape would close the inspector too.
      event.preventDefault()
      event.stopPropagation()
      close(true)
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      list[(index + step + list.length) % list.length]?.focus()
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault()
      ;(event.key === 'Home' ? list[0] : list[list.length - 1])?.focus()
    } else if (event.key === 'Tab') close(false)
  }
  const act = (work: () => void) => {
    close(true)
    work()
  }

  return (
    <div class="row-actions">
      <button
        ref={button}
        type="button"
        class="button button-small button-ghost row-actions-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Actions for ${item.title}`}
        aria-disabled={busy}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault()
            setOpen(true)
          }
        }}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <div ref={menu} id={menuId} class="row-actions-menu" role="menu" aria-label={`Actions for ${item.title}`} onKeyDown={onMenuKey}>
          <button type="button" role="menuitem" tabIndex={-1} onClick={() => act(() => navigate({ issue: item.id }))}>
            Open
          </button>
          <button type="button" role="menuitem" tabIndex={-1} onClick={() => act(() => onToggle(item.id, false))}>
            {selected ? 'Deselect' : 'Select'}
          </button>
          {ISSUE_STATUSES.filter((status) => status !== item.status && status !== 'reoccurred').map((status) => (
            <button key={status} type="button" role="menuitem" tabIndex={-1} data-status={status} onClick={() => act(() => !busy && onStatus(item.id, status))}>
              Mark {humanize(status).toLowerCase()}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
