import { useState } from 'preact/hooks'
import { getRetention, pruneArchive } from '../api/endpoints.ts'
import { formatBytes, formatNumber, plural } from '../lib/format.ts'
import { useApi } from '../state/use-api.ts'
import { ErrorBanner } from './error-banner.tsx'
import { Spinner } from './spinner.tsx'
import { useMutation } from '../state/use-mutation.ts'

/**
 * The processed-archive retention (`processed-retention`): the policy (configuration keys
 * `retention.processed_max_age_days` / `retention.processed_max_files`, 0 = off), the archive's size, and
 * "Prune archive now".
 */
export function RetentionPanel({ app }: { app: string }) {
  const info = useApi(`retention:${app}`, getRetention)
  const { busy, run } = useMutation()
  const [error, setError] = useState('')

  const prune = async () => {
    setError('')
    await run(pruneArchive, {
      done: ({ pruned }) => {
        info.reload()
        return pruned?.enabled === false ? 'Retention is off: nothing pruned' : `Pruned ${plural(pruned?.deleted ?? 0, 'file')} (${formatBytes(pruned?.freed_bytes ?? 0)})`
      },
      failed: setError,
      invalidate: false,
    })
  }

  return (
    <section class="panel settings-panel" aria-labelledby="retention-heading">
      <h2 id="retention-heading" class="panel-title">Processed archive retention</h2>
      {info.error && <ErrorBanner error={info.error} onRetry={info.reload} />}
      {!info.data && !info.error && <Spinner />}
      {info.data && (
        <>
          <dl class="facts facts-inline">
            <div class="fact"><dt>Archived files</dt><dd>{formatNumber(info.data.archived_files)}</dd></div>
            <div class="fact"><dt>Archive size</dt><dd>{formatBytes(info.data.archived_bytes)}</dd></div>
            <div class="fact"><dt>Max age</dt><dd>{info.data.policy.processed_max_age_days ? `${info.data.policy.processed_max_age_days} days` : 'off'}</dd></div>
            <div class="fact"><dt>Max files</dt><dd>{info.data.policy.processed_max_files ? formatNumber(info.data.policy.processed_max_files) : 'off'}</dd></div>
          </dl>
          <p class="muted small">
            The rules come from the configuration (<code>retention.processed_max_age_days</code>, <code>retention.processed_max_files</code> in <code>SERVICE_CONFIG</code>) and run after every incoming import. Pruning only makes the raw-event viewer unavailable for old files; issues stay.
          </p>
        </>
      )}
      {error && <p class="field-error" role="alert">{error}</p>}
      <div class="form-actions form-actions-start">
        <button type="button" class="button" onClick={prune} disabled={busy || !info.data}>{busy ? 'Pruning…' : 'Prune archive now'}</button>
      </div>
    </section>
  )
}
