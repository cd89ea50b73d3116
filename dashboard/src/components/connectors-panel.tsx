import { useEffect, useState } from 'preact/hooks'
import type { Connector, ConnectorPlan, ConnectorRun } from '../../../shared/schemas/connectors.ts'
import { deleteConnector, listConnectorRuns, listConnectors, previewConnector, syncConnector, testConnector } from '../api/endpoints.ts'
import { staleConnectors } from '../lib/connector-freshness.ts'
import { formatBytes } from '../lib/format.ts'
import { useApi } from '../state/use-api.ts'
import { useMutation } from '../state/use-mutation.ts'
import { ConnectorForm } from './connector-form.tsx'
import { ErrorBanner } from './error-banner.tsx'
import { Spinner } from './spinner.tsx'

/** How often run progress is fetched while a run is queued or running (reference §6: every 2 s). */
const POLL_MS = 2000

/**
 * Settings → Connectors (issue 15, docs/connectors.md): the connectors with "Test connection", a preview of the
 * plan as a table that is confirmed to start the sync, add/edit with the type's fields, and the runs with live
 * progress.
 */
export function ConnectorsPanel({ app }: { app: string }) {
  const connectors = useApi(`connectors:${app}`, listConnectors)
  const runs = useApi(`connectors-runs:${app}`, listConnectorRuns)
  const active = runs.data?.data.some((run) => run.status === 'queued' || run.status === 'running') ?? false
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => {
      runs.reload()
      connectors.reload()
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [active])
  // The two reads run side by side, so the connectors' answer can predate a run's last write (the run and its
  // connector's last_synced_at change in one batch), and a run can finish before the panel ever sees it active.
  // A finished run newer than its connector's last synchronization means the connectors are stale: read them again.
  const behind = staleConnectors(connectors.data?.data, runs.data?.data)
  useEffect(() => {
    if (behind !== '' && !active) connectors.reload()
  }, [behind, active])

  const failed = connectors.error ?? runs.error
  if (failed) return <ErrorBanner error={failed} onRetry={() => [connectors, runs].forEach((state) => state.reload())} context="Connectors unavailable" />
  if (!connectors.data || !runs.data) return <Spinner />
  return (
    <>
      <ConnectorList connectors={connectors.data.data} onSynced={runs.reload} />
      <RunsSection runs={runs.data.data} />
    </>
  )
}

function ConnectorList({ connectors, onSynced }: { connectors: readonly Connector[]; onSynced: () => void }) {
  const [editing, setEditing] = useState<number | 'new' | null>(connectors.length === 0 ? 'new' : null)
  const [results, setResults] = useState<Record<number, { ok: boolean; message: string }>>({})
  const [plans, setPlans] = useState<Record<number, ConnectorPlan>>({})
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null)
  const { pending, run } = useMutation<string>()

  const test = (connector: Connector) =>
    run(() => testConnector(connector.id), {
      done: (result) => void setResults((all) => ({ ...all, [connector.id]: result })),
      failed: (message) => setResults((all) => ({ ...all, [connector.id]: { ok: false, message } })),
      invalidate: false,
    }, `test-${connector.id}`)
  const preview = (connector: Connector) =>
    run(() => previewConnector(connector.id), {
      done: (plan) => void setPlans((all) => ({ ...all, [connector.id]: plan })),
      failed: (message) => setResults((all) => ({ ...all, [connector.id]: { ok: false, message } })),
      invalidate: false,
    }, `preview-${connector.id}`)
  const sync = (connector: Connector, plan: ConnectorPlan) =>
    run(() => syncConnector(connector.id, plan.snapshot), {
      done: () => {
        setPlans(({ [connector.id]: _done, ...rest }) => rest)
        onSynced()
        return `Synchronization of ${connector.name} started`
      },
      failure: 'Could not start the synchronization',
    }, `sync-${connector.id}`)
  const remove = (connector: Connector) =>
    run(() => deleteConnector(connector.id), { done: () => `Deleted ${connector.name}; its issues and mirrored files stay`, failure: 'Could not delete', settled: () => setConfirmDelete(null) }, `delete-${connector.id}`)

  return (
    <section class="panel settings-panel" aria-labelledby="connectors-heading" data-testid="connectors">
      <h2 id="connectors-heading" class="panel-title">Connectors</h2>
      <p class="muted">Pull log files from web servers and S3-compatible buckets. Credentials are stored encrypted and never shown again.</p>
      {connectors.length > 0 && (
        <ul class="plugin-list">
          {connectors.map((connector) =>
            editing === connector.id ? (
              <li key={connector.id} class="plugin-item">
                <ConnectorForm connector={connector} onDone={() => setEditing(null)} />
              </li>
            ) : (
              <li key={connector.id} class="plugin-item connector-item" data-connector={connector.name}>
                <div class="plugin-text">
                  <strong>{connector.name}</strong> <span class="badge badge-muted">{connector.type}</span>{' '}
                  {connector.last_status && <span class={`badge alert-status-${connector.last_status === 'success' ? 'sent' : 'failed'}`}>{connector.last_status}</span>}
                  <p class="muted small">{describe(connector)}</p>
                  {connector.last_error && <p class="field-error small">{connector.last_error}</p>}
                  {results[connector.id] && (
                    <p class={results[connector.id]!.ok ? 'small test-ok' : 'field-error small'} role="status">{results[connector.id]!.message}</p>
                  )}
                  {plans[connector.id] && <PlanTable plan={plans[connector.id]!} busy={pending !== null} onConfirm={() => void sync(connector, plans[connector.id]!)} onCancel={() => setPlans(({ [connector.id]: _gone, ...rest }) => rest)} />}
                </div>
                <div class="row-actions">
                  <button type="button" class="button button-small" disabled={pending !== null} onClick={() => void test(connector)}>
                    {pending === `test-${connector.id}` ? 'Testing…' : 'Test connection'}
                  </button>
                  <button type="button" class="button button-small" disabled={pending !== null || !connector.enabled} onClick={() => void preview(connector)}>
                    {pending === `preview-${connector.id}` ? 'Planning…' : 'Preview sync'}
                  </button>
                  <button type="button" class="button button-small button-ghost" onClick={() => setEditing(connector.id)}>Edit</button>
                  {confirmDelete === connector.id ? (
                    <span class="inline-confirm" role="group" aria-label={`Confirm deleting ${connector.name}`}>
                      <button type="button" class="button button-small button-danger" disabled={pending !== null} onClick={() => void remove(connector)}>Delete connector</button>
                      <button type="button" class="button button-small button-ghost" onClick={() => setConfirmDelete(null)}>Cancel</button>
                    </span>
                  ) : (
                    <button type="button" class="button button-small button-ghost" onClick={() => setConfirmDelete(connector.id)}>Delete…</button>
                  )}
                </div>
              </li>
            ),
          )}
        </ul>
      )}
      {editing === 'new' ? (
        <ConnectorForm onDone={() => setEditing(null)} />
      ) : (
        <button type="button" class="button button-primary section-action" onClick={() => setEditing('new')}>Add connector</button>
      )}
    </section>
  )
}

function describe(connector: Connector): string {
  const config = connector.config
  const where = connector.type === 'http' ? `${(config.urls as string[] | undefined)?.length ?? 0} URL(s)` : `${String(config.bucket)}/${String(config.prefix ?? '')}`
  const every = connector.sync_interval_minutes ? ` · every ${connector.sync_interval_minutes} min` : ''
  const synced = connector.last_synced_at ? ` · last synchronized ${connector.last_synced_at} UTC` : ''
  const credentials = connector.credentials_hint ? ` · ${connector.credentials_hint}` : ''
  return `${where}${credentials}${every}${synced}${connector.enabled ? '' : ' · disabled'}`
}

/** The preview plan: one row per remote file, and the button that confirms it (the sync refuses a changed plan). */
function PlanTable({ plan, busy, onConfirm, onCancel }: { plan: ConnectorPlan; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div class="connector-plan" data-testid="connector-plan">
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Action</th>
              <th scope="col">Size</th>
              <th scope="col">To fetch</th>
            </tr>
          </thead>
          <tbody>
            {plan.files.map((file) => (
              <tr key={file.path}>
                <td class="small">{file.path}</td>
                <td><span class="badge badge-muted">{file.action.replace('_', ' ')}</span></td>
                <td class="small">{formatBytes(file.size)}</td>
                <td class="small">{formatBytes(file.bytes_to_fetch)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="muted small">
        {plan.summary.files_to_sync} of {plan.summary.files} file(s) to synchronize, {formatBytes(plan.summary.bytes_to_fetch)} to fetch.
      </p>
      <div class="form-actions">
        <button type="button" class="button button-primary" disabled={busy || plan.summary.files_to_sync === 0} onClick={onConfirm}>Confirm sync</button>
        <button type="button" class="button button-ghost" onClick={onCancel}>Close</button>
      </div>
    </div>
  )
}

function RunsSection({ runs }: { runs: readonly ConnectorRun[] }) {
  return (
    <section class="panel settings-panel" aria-labelledby="connector-runs-heading" data-testid="connector-runs">
      <h2 id="connector-runs-heading" class="panel-title">Synchronization runs</h2>
      {runs.length === 0 ? (
        <p class="muted">No synchronization yet. Preview a connector and confirm the sync.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Started (UTC)</th>
                <th scope="col">Connector</th>
                <th scope="col">Status</th>
                <th scope="col">Progress</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.id} data-run={run.id}>
                  <td class="muted small">{run.started_at ?? run.updated_at}</td>
                  <td>{run.connector_name}</td>
                  <td>
                    <span class={`badge alert-status-${run.status === 'success' ? 'sent' : run.status === 'failed' ? 'failed' : 'pending'}`}>{run.status}</span>
                  </td>
                  <td class="small">
                    {run.files_completed}/{run.files_discovered} file(s), {formatBytes(run.bytes_fetched)} of {formatBytes(run.bytes_total)} fetched, {run.events_indexed} event(s) indexed
                    {run.current_file && <span class="muted"> · {run.current_file}</span>}
                    {run.message && <p class={run.status === 'failed' ? 'field-error small' : 'muted small'}>{run.message}</p>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
