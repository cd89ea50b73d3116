import { setValues } from '../../drivers/dialect/dialect.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { readRow } from '../../drivers/read-row.ts'
import { raw, sql } from '../../drivers/sql.ts'
import type { SqlValue } from '../../drivers/driver.ts'
import { CONNECTOR_MESSAGES, CONNECTOR_TYPES, type Connector } from '../../shared/schemas/connectors.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { InvalidInputError, NotFoundError, OperationalError } from '../errors.ts'
import type { SecretBox } from '../security/secret-box.ts'
import { connectorType } from './connector-types.ts'
import type { ConnectorInput } from './connector-input.ts'
import type { ConnectorTypeDefinition, RemoteSource, SourcePolicy } from './connector-type.ts'

const SHAPE = {
  id: 'number', name: 'string', type: CONNECTOR_TYPES, enabled: 'number', module_id: 'number?', module_name: 'string?', module_slug: 'string?', module_color: 'string?',
  stream_count: 'number', config_json: 'string', secret_hint: 'string?', sync_interval_minutes: 'number?', last_synced_at: 'string?', last_status: 'string?',
  last_error: 'string?', created_at: 'string', updated_at: 'string?',
} as const

/** The sealing context of a connector's credentials: sealed values do not open in another application. */
export const credentialsContext = (scope: AppScope) => `app:${scope.app.id}:connectors.credentials`

/** Connectors with their module and stream count (reference §6 "CRUD"), `where` on `c`. */
function selectConnectors(scope: AppScope, where: string, args: readonly SqlValue[]) {
  const { t } = scope
  return {
    sql: `SELECT c.id, c.name, c.type, c.enabled, c.module_id, m.name AS module_name, m.slug AS module_slug, m.color AS module_color,
        (SELECT COUNT(*) FROM ${t.sourceStreams} ss WHERE ss.connector_id = c.id) AS stream_count, c.config_json,
        CASE WHEN c.secret_sealed IS NULL THEN NULL ELSE c.secret_hint END AS secret_hint, c.sync_interval_minutes, c.last_synced_at, c.last_status,
        c.last_error, c.created_at, c.updated_at
      FROM ${t.connectors} c LEFT JOIN ${t.modules} m ON m.id = c.module_id WHERE ${where} ORDER BY c.name_key, c.id`,
    args,
  }
}

function toConnector(row: Record<string, unknown>): Connector {
  const r = readRow(row, SHAPE, 'connector')
  return {
    id: r.id, name: r.name, type: r.type, enabled: r.enabled === 1, module_id: r.module_id, module_name: r.module_name, module_slug: r.module_slug, module_color: r.module_color,
    stream_count: r.stream_count, config: JSON.parse(r.config_json) as Record<string, unknown>, has_credentials: r.secret_hint !== null, credentials_hint: r.secret_hint || null,
    sync_interval_minutes: r.sync_interval_minutes, last_synced_at: r.last_synced_at, last_status: r.last_status === 'success' || r.last_status === 'failed' ? r.last_status : null,
    last_error: r.last_error, created_at: r.created_at, updated_at: r.updated_at,
  }
}

export async function listConnectors(scope: AppScope): Promise<Connector[]> {
  const { rows } = await scope.db.execute(selectConnectors(scope, '1 = 1', []))
  return rows.map(toConnector)
}

export async function readConnector(scope: AppScope, id: number): Promise<Connector> {
  const { rows } = await scope.db.execute(selectConnectors(scope, 'c.id = ?', [id]))
  if (!rows[0]) throw new NotFoundError(CONNECTOR_MESSAGES.notFound)
  return toConnector(rows[0])
}

export interface ConnectorWriter {
  readonly scope: AppScope
  readonly secrets: SecretBox
  readonly now: string
}

/** `POST ?api=connectors` (201): name unique case-insensitively, module must exist, credentials sealed. */
export async function createConnector(writer: ConnectorWriter, input: ConnectorInput): Promise<Connector> {
  const { scope, now } = writer
  const { t } = scope
  await checkConflicts(scope, input, null)
  const sealed = input.credentials ? await seal(writer, input.definition!, input.credentials) : null
  const inserted = await scope.db.execute({
    sql: `INSERT INTO ${t.connectors} (name, name_key, type, enabled, module_id, config_json, secret_sealed, secret_hint, sync_interval_minutes, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)${scope.db.dialect.returningId}`,
    args: [input.name!, nameKey(input.name!), input.definition!.type, input.enabled === false ? 0 : 1, input.module_id ?? null, JSON.stringify(input.config),
      sealed?.value ?? null, sealed?.hint ?? null, input.sync_interval_minutes ?? null, now, now],
  })
  return readConnector(scope, Number(inserted.lastInsertId))
}

/** `PUT`/`PATCH ?api=connectors`: given fields replace, absent ones (credentials included) are kept. */
export async function updateConnector(writer: ConnectorWriter, id: number, input: ConnectorInput): Promise<Connector> {
  const { scope, now } = writer
  await checkConflicts(scope, input, id)
  const changes: Record<string, SqlValue> = { updated_at: now }
  if (input.name !== undefined) Object.assign(changes, { name: input.name, name_key: nameKey(input.name) })
  if (input.definition !== undefined) changes.type = input.definition.type
  if (input.config !== undefined) changes.config_json = JSON.stringify(input.config)
  if (input.enabled !== undefined) changes.enabled = input.enabled ? 1 : 0
  if (input.module_id !== undefined) changes.module_id = input.module_id
  if (input.sync_interval_minutes !== undefined) changes.sync_interval_minutes = input.sync_interval_minutes
  if (input.credentials !== undefined) {
    const sealed = input.credentials ? await seal(writer, input.definition ?? (await storedDefinition(scope, id)), input.credentials) : null
    Object.assign(changes, { secret_sealed: sealed?.value ?? null, secret_hint: sealed?.hint ?? null })
  }
  await scope.db.execute(sql`UPDATE ${raw(scope.t.connectors)} SET ${setValues(changes)} WHERE id = ${id}`)
  return readConnector(scope, id)
}

/** `DELETE ?api=connectors`: issues and mirrored files stay (reference §6); its streams and runs go. */
export async function deleteConnector(scope: AppScope, id: number): Promise<{ id: number; deleted: true }> {
  const { t } = scope
  const { found } = await namedBatch(scope.db, {
    found: { sql: `SELECT id FROM ${t.connectors} WHERE id = ?`, args: [id] },
    // Explicit rather than left to ON DELETE (foreign keys are not enforced on every engine).
    files: { sql: `UPDATE ${t.sourceFiles} SET source_stream_id = NULL WHERE source_stream_id IN (SELECT id FROM ${t.sourceStreams} WHERE connector_id = ?)`, args: [id] },
    streams: { sql: `DELETE FROM ${t.sourceStreams} WHERE connector_id = ?`, args: [id] },
    runs: { sql: `DELETE FROM ${t.connectorRuns} WHERE connector_id = ?`, args: [id] },
    remove: { sql: `DELETE FROM ${t.connectors} WHERE id = ?`, args: [id] },
  })
  if (!found.rows[0]) throw new NotFoundError(CONNECTOR_MESSAGES.notFound)
  return { id, deleted: true }
}

/** What a synchronization needs of a connector: its type, config and credentials opened. */
export interface OpenedConnector {
  readonly id: number
  readonly config: Record<string, unknown>
  readonly name: string
  readonly enabled: boolean
  readonly moduleId: number | null
  readonly definition: ConnectorTypeDefinition
  readonly source: RemoteSource
}

export const CONNECTOR_COLUMNS = 'id, name, type, enabled, module_id, config_json, secret_sealed'

export async function openConnector(scope: AppScope, secrets: SecretBox, row: Record<string, unknown> | undefined, policy: SourcePolicy): Promise<OpenedConnector> {
  if (!row) throw new NotFoundError(CONNECTOR_MESSAGES.notFound)
  const r = readRow(row, { id: 'number', name: 'string', type: 'string', enabled: 'number', module_id: 'number?', config_json: 'string', secret_sealed: 'string?' }, 'connector')
  const definition = connectorType(r.type)
  const credentials = r.secret_sealed ? (JSON.parse(await secrets.open(r.secret_sealed, credentialsContext(scope))) as Record<string, unknown>) : null
  const config = JSON.parse(r.config_json) as Record<string, unknown>
  const source = definition.open(config, credentials, policy)
  return { id: r.id, config, name: r.name, enabled: r.enabled === 1, moduleId: r.module_id, definition, source }
}

export async function loadConnector(scope: AppScope, secrets: SecretBox, id: number, policy: SourcePolicy): Promise<OpenedConnector> {
  const { rows } = await scope.db.execute({ sql: `SELECT ${CONNECTOR_COLUMNS} FROM ${scope.t.connectors} WHERE id = ?`, args: [id] })
  return openConnector(scope, secrets, rows[0], policy)
}

/** One read: the name is free (case-insensitively) and the module exists; the connector exists (updates). */
async function checkConflicts(scope: AppScope, input: ConnectorInput, id: number | null): Promise<void> {
  const { t } = scope
  const { duplicate, module, self } = await namedBatch(
    scope.db,
    {
      duplicate: input.name !== undefined ? { sql: `SELECT id FROM ${t.connectors} WHERE name_key = ? AND id <> ?`, args: [nameKey(input.name), id ?? 0] } : null,
      module: typeof input.module_id === 'number' ? { sql: `SELECT id FROM ${t.modules} WHERE id = ?`, args: [input.module_id] } : null,
      self: id !== null ? { sql: `SELECT id FROM ${t.connectors} WHERE id = ?`, args: [id] } : null,
    },
    { mode: 'read' },
  )
  if (self && !self.rows[0]) throw new NotFoundError(CONNECTOR_MESSAGES.notFound)
  if (duplicate?.rows[0]) throw new InvalidInputError(CONNECTOR_MESSAGES.duplicate)
  if (module && !module.rows[0]) throw new InvalidInputError(CONNECTOR_MESSAGES.moduleNotFound)
}

async function storedDefinition(scope: AppScope, id: number): Promise<ConnectorTypeDefinition> {
  const { rows } = await scope.db.execute({ sql: `SELECT type FROM ${scope.t.connectors} WHERE id = ?`, args: [id] })
  if (!rows[0]) throw new NotFoundError(CONNECTOR_MESSAGES.notFound)
  return connectorType(rows[0].type)
}

async function seal(writer: ConnectorWriter, definition: ConnectorTypeDefinition, credentials: Record<string, unknown>) {
  return { value: await writer.secrets.seal(JSON.stringify(credentials), credentialsContext(writer.scope)), hint: definition.credentialsHint(credentials) }
}

function nameKey(name: string): string {
  return name.toLowerCase()
}

/** A disabled connector cannot be synchronized (reference §6: 400). */
export function requireEnabled(connector: Pick<OpenedConnector, 'enabled'>): void {
  if (!connector.enabled) throw new OperationalError(CONNECTOR_MESSAGES.disabled)
}
