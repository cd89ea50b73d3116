/**
 * Connectors (reference §6, design.md §3: the reference's `local` and `ssh` types become the edge-reachable
 * `http` and `s3` types): request fields, messages, and what the endpoints answer. Shared by the worker and the dashboard.
 */
export const CONNECTOR_TYPES = ['http', 's3'] as const
export type ConnectorType = (typeof CONNECTOR_TYPES)[number]

export const CONNECTOR_LIMITS = { nameMax: 100, pathsMax: 100, pathMax: 600, headersMax: 20, headerValueMax: 4096, intervalMin: 1, intervalMax: 10_080 } as const

export const CONNECTOR_ACTIONS = ['new', 'append', 'unchanged', 'rotation', 'rename', 'reconcile', 'already_ingested', 'index_local'] as const
export type ConnectorAction = (typeof CONNECTOR_ACTIONS)[number]

export const CONNECTOR_MESSAGES = {
  name: `Connector name must contain 1–${CONNECTOR_LIMITS.nameMax} characters.`,
  type: `Connector type must be ${CONNECTOR_TYPES.join(' or ')}.`,
  config: 'Connector config must be an object.',
  httpUrls: `An http connector needs 1–${CONNECTOR_LIMITS.pathsMax} distinct http(s) log file URLs (config.urls) of at most ${CONNECTOR_LIMITS.pathMax} characters, without credentials in them.`,
  s3Config: 'An s3 connector needs config.endpoint (the http(s) origin of an S3-compatible service), bucket, and optionally region, prefix and path_style (true or false).',
  s3Credentials: 'An s3 connector needs credentials with access_key_id and secret_access_key.',
  credentials: `Connector credentials must be null or an object with headers (up to ${CONNECTOR_LIMITS.headersMax} name → value strings) and/or username and password.`,
  enabled: 'enabled must be true or false.',
  moduleId: 'module_id must be a module id or null.',
  moduleNotFound: 'Module not found.',
  interval: `sync_interval_minutes must be a whole number from ${CONNECTOR_LIMITS.intervalMin} to ${CONNECTOR_LIMITS.intervalMax}, or null.`,
  duplicate: 'A connector with that name already exists.',
  id: 'A valid connector id is required.',
  notFound: 'Connector not found.',
  disabled: 'Connector is disabled.',
  snapshot: 'snapshot must be the snapshot string of a preview.',
  snapshots: 'snapshots must map connector ids to preview snapshots.',
  notInPreview: 'Connector was not included in the confirmed synchronization preview.',
  planChanged: 'The synchronization plan changed after preview. Review the synchronization files again.',
  alreadySyncing: 'This connector is already synchronizing.',
  superseded: 'Superseded by a newer synchronization run of this connector.',
  stale: 'Synchronization worker stopped responding; marked interrupted after timeout.',
  noQueue: 'No job queue is bound (IMPORT_QUEUE). The run remains queued for the cron trigger, which runs queued synchronizations every 15 minutes.',
} as const

/** A connector as the API returns it: credentials are never returned, only whether there are some and a hint. */
export interface Connector {
  readonly id: number
  readonly name: string
  readonly type: ConnectorType
  readonly enabled: boolean
  readonly module_id: number | null
  readonly module_name: string | null
  readonly module_slug: string | null
  readonly module_color: string | null
  readonly stream_count: number
  readonly config: Record<string, unknown>
  readonly has_credentials: boolean
  /** What kind of credentials are stored (e.g. `basic auth (user ops)`, `2 headers`), never their values. */
  readonly credentials_hint: string | null
  readonly sync_interval_minutes: number | null
  readonly last_synced_at: string | null
  readonly last_status: 'success' | 'failed' | null
  readonly last_error: string | null
  readonly created_at: string
  readonly updated_at: string | null
}

export interface ConnectorPlanFile {
  readonly path: string
  readonly identity: string
  readonly size: number
  readonly modified_at: string | null
  readonly action: ConnectorAction
  readonly bytes_to_fetch: number
  readonly will_sync: boolean
}

export interface ConnectorPlan {
  readonly connector_id: number
  readonly connector_name: string
  readonly snapshot: string
  readonly files: readonly ConnectorPlanFile[]
  readonly summary: {
    readonly files: number
    readonly files_to_sync: number
    readonly already_current: number
    readonly bytes_to_fetch: number
    readonly actions: Readonly<Record<ConnectorAction, number>>
  }
}

export const CONNECTOR_RUN_STATUSES = ['queued', 'running', 'success', 'failed'] as const
export type ConnectorRunStatus = (typeof CONNECTOR_RUN_STATUSES)[number]

export interface ConnectorRun {
  readonly id: number
  readonly connector_id: number
  readonly status: ConnectorRunStatus
  readonly files_discovered: number
  readonly files_completed: number
  readonly files_updated: number
  readonly bytes_total: number
  readonly bytes_fetched: number
  readonly events_indexed: number
  readonly current_file: string | null
  readonly message: string | null
  readonly started_at: string | null
  readonly updated_at: string
  readonly finished_at: string | null
  readonly connector_name: string
  readonly connector_type: string
}

export interface ConnectorSyncAccepted {
  readonly accepted: true
  readonly worker_started: boolean
  readonly run_ids: readonly number[]
  readonly warning?: string
}
