import { getImportStatus, retryImport } from '../api/endpoints.ts'
import type { FailedImport } from '../api/types.ts'
import { followImport } from '../lib/follow-import.ts'
import { plural, relativeTime, utcTitle } from '../lib/format.ts'
import { describeImport } from '../lib/import-summary.ts'
import { invalidateData } from '../state/data-epoch.ts'
import { showToast } from '../state/toasts.ts'
import { useApi } from '../state/use-api.ts'
import { useMutation } from '../state/use-mutation.ts'

/**
 * Files set aside after failing to import several times in a row (`GET ?api=import-incoming` `failed`,
 * docs/api-ingestion.md): each with its error, and "Retry" (`POST {"retry": id}`). Shown only when there
 * are some; every other file keeps importing meanwhile.
 */
export function FailedImportsPanel({ app }: { app: string }) {
  const status = useApi(`import-status:${app}`, getImportStatus)
  const { pending, run } = useMutation<number>()
  const failed = status.data?.failed ?? []
  if (failed.length === 0) return null

  const retry = async (file: FailedImport) => {
    await run(
      async () => followImport(await retryImport(file.id)),
      {
        done: (result) => {
          const again = result.errors.some((message) => message.startsWith(`${file.path}: `))
          if (again) showToast(`${file.path} failed again`, 'error')
          else return `Retried ${file.path}: ${describeImport(result)}`
        },
        failure: 'Retry failed',
        settled: invalidateData,
      },
      file.id,
    )
  }

  return (
    <section class="panel settings-panel" aria-labelledby="failed-imports-heading" data-testid="failed-imports">
      <h2 id="failed-imports-heading" class="panel-title">Files set aside</h2>
      <p class="muted">These files failed to import several times in a row and are no longer retried on their own. Retry one once its cause is fixed, or upload it again.</p>
      <ul class="failed-imports">
        {failed.map((file) => (
          <li key={file.id} class="failed-import">
            <div class="failed-import-text">
              <strong>{file.path}</strong>{' '}
              <span class="muted small" title={utcTitle(file.failed_at)}>
                {plural(file.attempts, 'attempt')}, set aside {relativeTime(file.failed_at)}
              </span>
              <div class="field-error small">{file.error}</div>
            </div>
            <button type="button" class="button" onClick={() => retry(file)} disabled={pending !== null} aria-label={`Retry ${file.path}`}>
              {pending === file.id ? 'Retrying…' : 'Retry'}
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
