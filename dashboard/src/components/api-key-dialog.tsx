import { setToken, getToken } from '../state/token.ts'
import { invalidateData } from '../state/data-epoch.ts'
import { showToast } from '../state/toasts.ts'
import { ApiKeyForm } from './api-key-form.tsx'
import { Dialog } from './dialog.tsx'

/** The top bar's API-key dialog: change or forget the key kept in this browser. A 401 shows ApiKeyScreen instead. */
export function ApiKeyDialog({ onClose }: { onClose: () => void }) {
  const hadToken = getToken() !== null
  return (
    <Dialog title="API key" onClose={onClose}>
      <ApiKeyForm
        onSaved={() => {
          showToast('API key checked and saved in this browser')
          onClose()
          invalidateData()
        }}
      >
        {(busy) => (
          <>
            {hadToken && (
              <button type="button" class="button button-ghost" disabled={busy} onClick={() => { setToken(null); showToast('API key removed from this browser'); onClose(); invalidateData() }}>
                Forget key
              </button>
            )}
            <button type="button" class="button button-ghost" onClick={onClose}>Cancel</button>
          </>
        )}
      </ApiKeyForm>
    </Dialog>
  )
}
