import type { ComponentChildren } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
import { Icon } from './icon.tsx'

/**
 * A modal built on the native <dialog> (`showModal()` makes the rest of the page inert, so focus stays
 * inside, and Escape fires `cancel`). Focus goes to the first field on open and back to whatever opened the
 * dialog on close.
 */
export function Dialog({ title, onClose, children, wide = false, footer }: {
  title: string
  onClose: () => void
  children: ComponentChildren
  wide?: boolean
  footer?: ComponentChildren
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const onCloseRef = useRef(onClose)
  onCloseRef.current = onClose

  // Layout effect: the dialog is modal and focused before the browser paints, so no keystroke lands behind it.
  useLayoutEffect(() => {
    const dialog = ref.current!
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    dialog.showModal()
    const first = dialog.querySelector<HTMLElement>('[autofocus], .dialog-body input:not([type=hidden]), .dialog-body select, .dialog-body textarea, .dialog-body button')
    first?.focus()
    const cancel = (event: Event) => {
      event.preventDefault()
      onCloseRef.current()
    }
    dialog.addEventListener('cancel', cancel)
    return () => {
      dialog.removeEventListener('cancel', cancel)
      if (dialog.open) dialog.close()
      if (opener?.isConnected) opener.focus()
    }
  }, [])

  return (
    <dialog ref={ref} class={wide ? 'dialog dialog-wide' : 'dialog'} aria-labelledby="dialog-title">
      <header class="dialog-header">
        <h2 id="dialog-title">{title}</h2>
        <button type="button" class="icon-button" onClick={() => onCloseRef.current()} aria-label="Close dialog">
          <Icon name="close" />
        </button>
      </header>
      <div class="dialog-body">{children}</div>
      {footer && <footer class="dialog-footer">{footer}</footer>}
    </dialog>
  )
}
