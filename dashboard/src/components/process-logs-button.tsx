import { processLogs } from '../api/endpoints.ts'
import type { ImportResult } from '../api/types.ts'
import { followImport } from '../lib/follow-import.ts'
import { describeImport } from '../lib/import-summary.ts'
import { Icon } from './icon.tsx'
import { useMutation } from '../state/use-mutation.ts'

/** Issue 17 item 14: "Processed logs: 0 files" told nobody what to do next. */
export const NOTHING_WAITING = 'No log files were waiting. Send logs by uploading a file in Settings → Logs, by putting files in the incoming area (incoming/<application>/), or through HTTP ingest (Settings → Ingest).'

/** "Process logs": imports every file waiting in the application's incoming area (`import-incoming`). */
export function ProcessLogsButton({ compact = false }: { compact?: boolean }) {
  const { busy, run: mutate } = useMutation()
  const run = async () => {
    await mutate(async () => followImport(await processLogs()), {
      done: (result: ImportResult) => (Number(result.files ?? 0) === 0 ? NOTHING_WAITING : `Processed logs: ${describeImport(result)}`),
      failure: 'Process logs failed',
    })
  }
  return (
    <button type="button" class={compact ? 'button button-ghost' : 'button'} onClick={run} disabled={busy} aria-busy={busy} title="Process logs">
      <Icon name="play" />
      <span class="button-label">{busy ? 'Processing…' : 'Process logs'}</span>
    </button>
  )
}
