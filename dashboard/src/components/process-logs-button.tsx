import { processLogs } from '../api/endpoints.ts'
import { followImport } from '../lib/follow-import.ts'
import { describeImport } from '../lib/import-summary.ts'
import { Icon } from './icon.tsx'
import { useMutation } from '../state/use-mutation.ts'

/** "Process logs": imports every file waiting in the application's incoming area (`import-incoming`). */
export function ProcessLogsButton({ compact = false }: { compact?: boolean }) {
  const { busy, run: mutate } = useMutation()
  const run = async () => {
    await mutate(async () => followImport(await processLogs()), { done: (result) => `Processed logs: ${describeImport(result)}`, failure: 'Process logs failed' })
  }
  return (
    <button type="button" class={compact ? 'button button-ghost' : 'button'} onClick={run} disabled={busy} aria-busy={busy}>
      <Icon name="play" />
      {busy ? 'Processing…' : 'Process logs'}
    </button>
  )
}
