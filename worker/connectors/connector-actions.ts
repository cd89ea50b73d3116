import { CONNECTOR_MESSAGES, type ConnectorPlan, type ConnectorSyncAccepted } from '../../shared/schemas/connectors.ts'
import type { AppScope } from '../apps/app-scope.ts'
import type { Deps } from '../deps.ts'
import { AppError, InvalidInputError, OperationalError } from '../errors.ts'
import { enqueueImport } from '../jobs/job-message.ts'
import { toTimestamp } from '../time.ts'
import { planConnector, presentPlan } from './connector-plan.ts'
import { createRun, updateRunStatement } from './connector-runs.ts'
import { CONNECTOR_COLUMNS, loadConnector, openConnector, requireEnabled } from './connectors.ts'
import { CONNECTORS_SECTION } from './connectors-config.ts'
import type { SourcePolicy } from './connector-type.ts'

export function sourcePolicy(deps: Pick<Deps, 'config'>): SourcePolicy {
  const settings = deps.config.section(CONNECTORS_SECTION)
  return { allowLocalTargets: settings.allow_local_targets, timeoutMs: settings.timeout_ms, chunkBytes: settings.chunk_bytes }
}

/** `POST ?api=connectors-test {id}` (reference §6): lists the remote files; a failure is the 400 naming why. */
export async function testConnector(deps: Deps, scope: AppScope, id: number): Promise<{ ok: true; message: string }> {
  const connector = await loadConnector(scope, deps.secrets, id, sourcePolicy(deps))
  const files = await connector.source.list()
  return { ok: true, message: connector.definition.testMessage(files, connector.config) }
}

/** `POST ?api=connectors-preview {id?}`: one plan, or every enabled connector's with the errors of those that failed. */
export async function previewConnectors(
  deps: Deps,
  scope: AppScope,
  id: number | null,
): Promise<ConnectorPlan | { results: ConnectorPlan[]; errors: { connector_id: number; error: string }[] }> {
  if (id !== null) {
    const connector = await loadConnector(scope, deps.secrets, id, sourcePolicy(deps))
    return presentPlan(await planConnector(scope, connector, connector.source))
  }
  const results: ConnectorPlan[] = []
  const errors: { connector_id: number; error: string }[] = []
  const policy = sourcePolicy(deps)
  for (const row of await enabledConnectors(scope)) {
    try {
      const connector = await openConnector(scope, deps.secrets, row, policy)
      results.push(presentPlan(await planConnector(scope, connector, connector.source)))
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      errors.push({ connector_id: Number(row.id), error: error.message })
    }
  }
  return { results, errors }
}

export interface SyncRequest {
  readonly id: number | null
  readonly snapshot: string | null
  readonly snapshots: Readonly<Record<string, string>> | null
}

/** Reads `{id?, snapshot?, snapshots?}`; the id has been read by the handler. */
export function readSyncRequest(body: Record<string, unknown>, id: number | null): SyncRequest {
  const snapshot = body.snapshot
  if (snapshot !== undefined && snapshot !== null && !isSnapshot(snapshot)) throw new InvalidInputError(CONNECTOR_MESSAGES.snapshot)
  const snapshots = body.snapshots
  if (snapshots !== undefined && snapshots !== null) {
    const valid = typeof snapshots === 'object' && !Array.isArray(snapshots) && Object.entries(snapshots).every(([key, value]) => /^[1-9]\d{0,15}$/.test(key) && isSnapshot(value))
    if (!valid) throw new InvalidInputError(CONNECTOR_MESSAGES.snapshots)
  }
  return { id, snapshot: typeof snapshot === 'string' ? snapshot : null, snapshots: (snapshots as Record<string, string> | null | undefined) ?? null }
}

/**
 * `POST ?api=connectors-sync` (reference §6): one queued run per connector, started through the job queue; 202
 * with the run ids. The plan is compared with the confirmed preview's snapshot when the run starts.
 */
export async function requestSync(deps: Deps, scope: AppScope, request: SyncRequest): Promise<ConnectorSyncAccepted> {
  const now = toTimestamp(deps.now())
  const targets: { id: number; snapshot: string | null }[] = []
  if (request.id !== null) {
    const connector = await loadConnector(scope, deps.secrets, request.id, sourcePolicy(deps))
    requireEnabled(connector)
    targets.push({ id: connector.id, snapshot: request.snapshot ?? request.snapshots?.[String(connector.id)] ?? null })
  } else {
    for (const row of await enabledConnectors(scope)) {
      const id = Number(row.id)
      const snapshot = request.snapshots ? request.snapshots[String(id)] : undefined
      if (request.snapshots && snapshot === undefined) throw new OperationalError(CONNECTOR_MESSAGES.notInPreview)
      targets.push({ id, snapshot: snapshot ?? null })
    }
  }
  return startRuns(deps, scope, targets, now)
}

/** Queues one run per target and sends its first message (scheduled-sync.ts starts due connectors the same way). */
export async function startRuns(deps: Deps, scope: AppScope, targets: readonly { id: number; snapshot: string | null }[], now: string): Promise<ConnectorSyncAccepted> {
  const runIds: number[] = []
  for (const target of targets) runIds.push(await createRun(scope, target.id, target.snapshot, now))
  let started = true
  for (const run of runIds) {
    if (!(await enqueueImport(deps, { app: scope.app.id, connector_run: run }))) {
      started = false
      await scope.db.execute(updateRunStatement(scope, run, { message: CONNECTOR_MESSAGES.noQueue }, now))
    }
  }
  return { accepted: true, worker_started: started && runIds.length > 0, run_ids: runIds, ...(started ? {} : { warning: CONNECTOR_MESSAGES.noQueue }) }
}

/** The enabled connectors' rows (opened one by one by the caller, so one unreadable secret fails only its own). */
async function enabledConnectors(scope: AppScope): Promise<Record<string, unknown>[]> {
  const { rows } = await scope.db.execute({ sql: `SELECT ${CONNECTOR_COLUMNS} FROM ${scope.t.connectors} WHERE enabled = 1 ORDER BY id` })
  return rows
}

function isSnapshot(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value)
}
