import { useState } from 'preact/hooks'
import { processLogs } from '../api/endpoints.ts'
import { errorMessage } from '../api/api-error.ts'
import { followImport } from '../lib/follow-import.ts'
import { describeImport } from '../lib/import-summary.ts'
import { invalidateData } from '../state/data-epoch.ts'
import { showToast } from '../state/toasts.ts'
import { Icon } from './icon.tsx'

/** "Process logs": imports every file waiting in the application's incoming area (`import-incoming`). */
export function ProcessLogsButton({ compact = false }: { compact?: boolean }) {
  const [busy, setBusy] = useState(false)
  const run = async () => {
    setBusy(true)
    try {
      const result = await followImport(await processLogs())
      showToast(`Processed logs: ${describeImport(result)}`)
      invalidateData()
    } catch (error) {
      showToast(`Process logs failed: ${errorMessage(error)}`, 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <button type="button" class={compact ? 'button button-ghost' : 'button'} onClick={run} disabled={busy} aria-busy={busy}>
      <Icon name="play" />
      {busy ? 'Processing…' : 'Process logs'}
    </button>
  )
}
