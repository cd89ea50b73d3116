import { useState } from 'preact/hooks'
import { errorMessage } from '../api/api-error.ts'
import { reindex } from '../api/endpoints.ts'
import { followImport } from '../lib/follow-import.ts'
import { describeImport } from '../lib/import-summary.ts'
import { invalidateData } from '../state/data-epoch.ts'
import { showToast } from '../state/toasts.ts'

/**
 * "Reindex": re-reads every archived file from byte 0 with the current severities (`reindex`), after an
 * inline confirmation, because it can take a while on a big archive.
 */
export function ReindexButton() {
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const run = async () => {
    setBusy(true)
    try {
      const result = await followImport(await reindex())
      showToast(`Reindexed: ${describeImport(result)}`)
      invalidateData()
    } catch (error) {
      showToast(`Reindex failed: ${errorMessage(error)}`, 'error')
    } finally {
      setBusy(false)
      setConfirming(false)
    }
  }
  if (!confirming) {
    return (
      <button type="button" class="button button-ghost" onClick={() => setConfirming(true)} disabled={busy}>
        Reindex archived files…
      </button>
    )
  }
  return (
    <span class="inline-confirm" role="group" aria-label="Confirm reindex">
      <span class="small">Re-read every archived file with the saved severities?</span>
      <button type="button" class="button button-small button-primary" onClick={run} disabled={busy} autoFocus>
        {busy ? 'Reindexing…' : 'Reindex'}
      </button>
      <button type="button" class="button button-small button-ghost" onClick={() => setConfirming(false)} disabled={busy}>
        Cancel
      </button>
    </span>
  )
}
