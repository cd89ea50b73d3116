import { dismissToast, useToasts } from '../state/toasts.ts'
import { Icon } from './icon.tsx'

/** Where confirmations appear; polite live region so screen readers announce them without stealing focus. */
export function ToastRegion() {
  const toasts = useToasts()
  return (
    <div class="toasts" aria-live="polite" aria-atomic="false">
      {toasts.map((toast) => (
        <div key={toast.id} class={`toast toast-${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
          <span>{toast.message}</span>
          <button type="button" class="icon-button" aria-label="Dismiss" onClick={() => dismissToast(toast.id)}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </div>
  )
}
