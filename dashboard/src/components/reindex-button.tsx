import { useState } from 'preact/hooks'
import { reindex } from '../api/endpoints.ts'
import { followImport } from '../lib/follow-import.ts'
import { describeImport } from '../lib/import-summary.ts'
import { useMutation } from '../state/use-mutation.ts'

/**
 * "Reindex": re-reads every archived file from byte 0 with the current severities (`reindex`), after an
 * inline confirmation, because it can take a while on a big archive.
 */
export function ReindexButton() {
  const [confirming, setConfirming] = useState(false)
  const { busy, run: mutate } = useMutation()
  const run = async () => {
    await mutate(async () => followImport(await reindex()), { done: (result) => `Reindexed: ${describeImport(result)}`, failure: 'Reindex failed', settled: () => setConfirming(false) })
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
