import { namedBatch } from '../../drivers/named-batch.ts'
import { readRow } from '../../drivers/read-row.ts'
import { CONNECTOR_ACTIONS, type ConnectorAction, type ConnectorPlan, type ConnectorPlanFile } from '../../shared/schemas/connectors.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { PREFIX_BYTES } from '../intake/register-incoming.ts'
import { sha256Bytes } from '../intake/sha256-bytes.ts'
import type { RemoteFile, RemoteSource } from './connector-type.ts'

/** One mirrored generation of a remote file, with where the import of its archived copy stands. */
export interface StreamRow {
  readonly id: number
  readonly remote_path: string
  readonly remote_identity: string
  readonly generation: number
  readonly local_path: string
  readonly source_file_id: number | null
  readonly remote_size: number
  readonly fetched_offset: number
  readonly prefix_hash: string | null
  /** The archived file's size and checkpoint (null: not registered yet). */
  readonly file_size: number | null
  readonly next_offset: number | null
}

/** A manual import (an upload or an incoming drop) that may hold the start of a remote file. */
export interface ManualImport {
  readonly id: number
  readonly size: number
  readonly channel: string
  readonly prefix_hash: string | null
  readonly parser_id: string | null
  readonly log_type: string
  readonly sha256: string | null
}

/** A plan line with what the synchronization needs to carry it out. */
export interface PlanEntry extends ConnectorPlanFile {
  readonly file: RemoteFile
  /** The stream continued (append, rename, index_local, unchanged); null when a new generation starts. */
  readonly stream: StreamRow | null
  /** The generation a new stream gets (new, rotation, reconcile, already_ingested) or a renamed one moves to. */
  readonly generation: number
  /** The manual import matched (reconcile, already_ingested). */
  readonly manual: ManualImport | null
}

export interface ConnectorPlanDetail extends ConnectorPlan {
  readonly entries: readonly PlanEntry[]
}

/**
 * The synchronization plan of one connector (reference §6 "connector-preview"): the remote listing, each file
 * classified against the connector's streams and the application's manual imports, and a `snapshot` (SHA-256
 * over the listing and the plan) that `connectors-sync` compares to refuse a plan that changed after the preview.
 * One database read; remote requests: the listing, plus a prefix read where the identity changed or a manual
 * import may match.
 */
export async function planConnector(scope: AppScope, connector: { id: number; name: string; moduleId: number | null }, source: RemoteSource): Promise<ConnectorPlanDetail> {
  const files = await source.list()
  const { streams, manual } = await readPlanState(scope, connector, files)
  const prefixes = new Map<string, Promise<string>>()
  const prefixOf = (file: RemoteFile, length: number) => {
    const key = `${length}:${file.path}`
    if (!prefixes.has(key)) prefixes.set(key, source.read(file, 0, length).then(sha256Bytes))
    return prefixes.get(key)!
  }
  const latest = new Map<string, StreamRow>()
  const generations = new Map<string, number>()
  for (const stream of streams) {
    if ((latest.get(stream.remote_path)?.generation ?? 0) < stream.generation) latest.set(stream.remote_path, stream)
    generations.set(stream.remote_path, Math.max(generations.get(stream.remote_path) ?? 0, stream.generation))
  }
  const listed = new Map(files.map((file) => [file.path, file.identity]))
  // Renames first: a listed path without a stream whose identity a stream elsewhere has, while that stream's own
  // path is gone or now holds something else (logrotate: app.log → app.log.1, and a new app.log).
  const renames = new Map<string, StreamRow>()
  const movedAway = new Set<number>()
  for (const file of files) {
    if (latest.has(file.path) || file.identity === '') continue
    const from = [...latest.values()].find((stream) => stream.remote_identity === file.identity && stream.remote_path !== file.path && listed.get(stream.remote_path) !== file.identity && !movedAway.has(stream.id))
    if (from) {
      renames.set(file.path, from)
      movedAway.add(from.id)
    }
  }
  const nextGeneration = (path: string) => (generations.get(path) ?? 0) + 1
  const entries: PlanEntry[] = []
  for (const file of files) {
    const stream = latest.get(file.path)
    const line = (action: ConnectorAction, options: { stream?: StreamRow | null; bytes?: number; manual?: ManualImport | null; generation?: number } = {}): PlanEntry => ({
      path: file.path, identity: file.identity, size: file.size, modified_at: file.modifiedAt, action,
      bytes_to_fetch: options.bytes ?? 0, will_sync: action !== 'unchanged',
      file, stream: options.stream ?? null, manual: options.manual ?? null, generation: options.generation ?? nextGeneration(file.path),
    })
    if (!stream) {
      const renamed = renames.get(file.path)
      if (renamed) {
        entries.push(line('rename', { stream: renamed, bytes: Math.max(0, file.size - renamed.fetched_offset) }))
        continue
      }
      const match = await matchManual(file, manual, prefixOf)
      if (match) entries.push(line(match.size === file.size ? 'already_ingested' : 'reconcile', { manual: match, bytes: file.size }))
      else entries.push(line('new', { bytes: file.size }))
      continue
    }
    if (movedAway.has(stream.id) || file.size < stream.fetched_offset || (await prefixChanged(file, stream, prefixOf))) {
      entries.push(line('rotation', { bytes: file.size }))
    } else if (file.size > stream.fetched_offset) {
      entries.push(line('append', { stream, bytes: file.size - stream.fetched_offset }))
    } else if (stream.file_size === null || (stream.next_offset ?? 0) < stream.file_size || stream.file_size < stream.fetched_offset) {
      entries.push(line('index_local', { stream }))
    } else {
      entries.push(line('unchanged', { stream, generation: stream.generation }))
    }
  }
  const actions = Object.fromEntries(CONNECTOR_ACTIONS.map((action) => [action, 0])) as Record<ConnectorAction, number>
  for (const entry of entries) actions[entry.action]++
  const planFiles = entries.map(({ path, identity, size, modified_at, action, bytes_to_fetch, will_sync }) => ({ path, identity, size, modified_at, action, bytes_to_fetch, will_sync }))
  const snapshot = await sha256Bytes(new TextEncoder().encode(JSON.stringify({ connector: connector.id, files: planFiles })))
  return {
    connector_id: connector.id,
    connector_name: connector.name,
    snapshot,
    files: planFiles,
    summary: {
      files: entries.length,
      files_to_sync: entries.filter((entry) => entry.will_sync).length,
      already_current: actions.unchanged,
      bytes_to_fetch: entries.reduce((sum, entry) => sum + entry.bytes_to_fetch, 0),
      actions,
    },
    entries,
  }
}

/** Without the fields only the synchronization needs. */
export function presentPlan(plan: ConnectorPlanDetail): ConnectorPlan {
  const { entries: _entries, ...shown } = plan
  return shown
}

/**
 * A changed identity (or none to compare) with other first bytes than were mirrored is a replaced file — an
 * append changes an ETag too, but leaves the start alone (reference §6; issue 15).
 */
async function prefixChanged(file: RemoteFile, stream: StreamRow, prefixOf: (file: RemoteFile, length: number) => Promise<string>): Promise<boolean> {
  if (file.identity !== '' && file.identity === stream.remote_identity) return false
  const length = Math.min(stream.fetched_offset, PREFIX_BYTES)
  if (length === 0 || stream.prefix_hash === null) return false
  return (await prefixOf(file, length)) !== stream.prefix_hash
}

/** The largest fully read manual import of the same name and module whose first bytes the remote file starts with. */
async function matchManual(file: RemoteFile, manual: readonly ManualImport[], prefixOf: (file: RemoteFile, length: number) => Promise<string>): Promise<ManualImport | null> {
  const name = remoteName(file.path)
  const candidates = manual.filter((row) => row.channel === name && row.size > 0 && row.size <= file.size && row.prefix_hash !== null).sort((a, b) => b.size - a.size)
  for (const candidate of candidates) {
    if ((await prefixOf(file, Math.min(candidate.size, PREFIX_BYTES))) === candidate.prefix_hash) return candidate
  }
  return null
}

/** The file name of a remote path (the last URL path segment or key segment): the source file's channel. */
export function remoteName(path: string): string {
  let rest = path
  try {
    rest = new URL(path).pathname
  } catch {
    // an object key, not an URL
  }
  const name = rest.slice(rest.lastIndexOf('/') + 1)
  try {
    return decodeURIComponent(name) || 'index'
  } catch {
    return name || 'index'
  }
}

async function readPlanState(scope: AppScope, connector: { id: number; moduleId: number | null }, files: readonly RemoteFile[]) {
  const { t } = scope
  const names = [...new Set(files.map((file) => remoteName(file.path)))]
  const { streams, manual } = await namedBatch(
    scope.db,
    {
      streams: {
        sql: `SELECT ss.id, ss.remote_path, ss.remote_identity, ss.generation, ss.local_path, ss.source_file_id, ss.remote_size, ss.fetched_offset, ss.prefix_hash,
            s.size AS file_size, f.next_offset
          FROM ${t.sourceStreams} ss LEFT JOIN ${t.sourceFiles} s ON s.id = ss.source_file_id LEFT JOIN ${t.fileImports} f ON f.source_file_id = s.id
          WHERE ss.connector_id = ?`,
        args: [connector.id],
      },
      manual:
        names.length > 0
          ? {
              sql: `SELECT s.id, s.size, s.channel, f.prefix_hash, f.parser_id, s.log_type, c.sha256
                FROM ${t.sourceFiles} s JOIN ${t.fileImports} f ON f.source_file_id = s.id LEFT JOIN ${t.fileContents} c ON c.source_file_id = s.id
                WHERE s.source_stream_id IS NULL AND f.next_offset >= s.size AND s.channel IN (SELECT j.name FROM ${scope.db.dialect.jsonRecords({ name: 'text' }, 'j')})
                  AND ${connector.moduleId === null ? 's.module_id IS NULL' : 's.module_id = ?'}`,
              // The names as ONE JSON parameter: a bucket lists any number of files, and D1 refuses a statement
              // with more than 100 bound parameters.
              args: [JSON.stringify(names.map((name) => ({ name }))), ...(connector.moduleId === null ? [] : [connector.moduleId])],
            }
          : null,
    },
    { mode: 'read' },
  )
  return {
    streams: streams.rows.map((row) =>
      readRow(
        row,
        {
          id: 'number', remote_path: 'string', remote_identity: 'string', generation: 'number', local_path: 'string', source_file_id: 'number?', remote_size: 'number',
          fetched_offset: 'number', prefix_hash: 'string?', file_size: 'number?', next_offset: 'number?',
        },
        'source stream',
      ),
    ),
    manual: (manual?.rows ?? []).map((row) =>
      readRow(row, { id: 'number', size: 'number', channel: 'string', prefix_hash: 'string?', parser_id: 'string?', log_type: 'string', sha256: 'string?' }, 'manual import'),
    ),
  }
}
