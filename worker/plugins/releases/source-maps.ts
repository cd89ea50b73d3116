import { readRow } from '../../../drivers/read-row.ts'
import { RELEASE_LIMITS, RELEASE_MESSAGES, type SourceMapRow } from '../../../shared/schemas/releases.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { InvalidInputError, NotFoundError } from '../../errors.ts'
import type { LogStore } from '../../intake/log-store.ts'
import { sha256Bytes } from '../../intake/sha256-bytes.ts'

/** A source map ready to store: its release, the file's basename and the map's bytes. */
export interface SourceMapUpload {
  readonly release: string
  readonly file: string
  readonly bytes: Uint8Array
}

/**
 * Where a map's bytes live in the log bucket (issue 14: not in the database): one key per application,
 * release and file — a hash, since a release and a 300-character name could pass R2's 1,024-byte key limit
 * once escaped — so an upsert overwrites in place.
 */
export async function sourceMapKey(appId: string, release: string, file: string): Promise<string> {
  return `source-maps/${appId}/${await sha256Bytes(new TextEncoder().encode(`${release}\n${file}`))}.map`
}

/** The basename of a file name or URL (reference §4.4: "only the basename is kept"), without query or fragment. */
export function mapFileName(value: string): string {
  const path = value.trim().replace(/[?#].*$/, '')
  return path.slice(path.lastIndexOf('/') + 1)
}

/**
 * Checks a `source-maps` POST body (reference §4.4): `release` 1–120, `file` or `url` (basename kept),
 * `map` or `content` — a string or a JSON object, at most 16 MiB, JSON with `mappings`.
 */
export function toSourceMapUpload(body: Record<string, unknown>): SourceMapUpload {
  const release = typeof body.release === 'string' ? body.release.trim() : ''
  if (release.length < 1 || release.length > RELEASE_LIMITS.version) throw new InvalidInputError(RELEASE_MESSAGES.mapRelease)
  const name = body.file ?? body.url
  const file = typeof name === 'string' ? mapFileName(name) : ''
  if (file.length < 1 || file.length > RELEASE_LIMITS.file) throw new InvalidInputError(RELEASE_MESSAGES.mapFile)
  const map = body.map ?? body.content
  let text: string
  if (typeof map === 'string') text = map
  else if (map !== null && typeof map === 'object' && !Array.isArray(map)) text = JSON.stringify(map)
  else throw new InvalidInputError(RELEASE_MESSAGES.mapRequired)
  const bytes = new TextEncoder().encode(text)
  checkSourceMap(bytes)
  return { release, file, bytes }
}

/** At most 16 MiB of JSON whose object has `mappings` (reference §4.4). */
export function checkSourceMap(bytes: Uint8Array): void {
  if (bytes.length > RELEASE_LIMITS.mapBytes) throw new InvalidInputError(RELEASE_MESSAGES.mapTooLarge)
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    throw new InvalidInputError(RELEASE_MESSAGES.mapInvalid)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || !('mappings' in parsed)) throw new InvalidInputError(RELEASE_MESSAGES.mapInvalid)
}

/**
 * Stores a map: the bytes first, then the metadata row (an upsert on release + file). A failure between the
 * two leaves bytes under a key the next upload of the same file overwrites, never a row without bytes.
 */
export async function storeSourceMap(scope: AppScope, logs: LogStore, upload: SourceMapUpload, now: string): Promise<{ release: string; file: string; size: number; stored: true }> {
  const d = scope.db.dialect
  const rel = d.quote('release')
  const key = await sourceMapKey(scope.app.id, upload.release, upload.file)
  await logs.write(key, upload.bytes, upload.bytes.length)
  await scope.db.execute({
    sql: d.upsert(scope.t.sourceMaps, [rel, 'file', 'size', 'object_key', 'created_at'], 'VALUES (?, ?, ?, ?, ?)', [rel, 'file'], {
      size: d.incoming('size'),
      object_key: d.incoming('object_key'),
      created_at: d.incoming('created_at'),
    }),
    args: [upload.release, upload.file, upload.bytes.length, key, now],
  })
  return { release: upload.release, file: upload.file, size: upload.bytes.length, stored: true }
}

const SHAPE = { id: 'number', release: 'string', file: 'string', size: 'number', created_at: 'string' } as const

/** `GET ?api=source-maps[&release=]`: metadata only, newest first. */
export async function listSourceMaps(scope: AppScope, release: string | null): Promise<SourceMapRow[]> {
  const rel = scope.db.dialect.quote('release')
  const where = release === null ? '' : `WHERE ${rel} = ?`
  const { rows } = await scope.db.execute({
    sql: `SELECT id, ${rel} AS ${rel}, file, size, created_at FROM ${scope.t.sourceMaps} ${where} ORDER BY created_at DESC, id DESC`,
    args: release === null ? [] : [release],
  })
  return rows.map((row) => readRow(row, SHAPE, 'source map'))
}

/** `DELETE ?api=source-maps&id`: the row, then its bytes; 404 `Source map not found.` */
export async function deleteSourceMap(scope: AppScope, logs: LogStore, id: number): Promise<{ id: number; deleted: true }> {
  const { rows } = await scope.db.execute({ sql: `SELECT object_key FROM ${scope.t.sourceMaps} WHERE id = ?`, args: [id] })
  if (rows.length === 0) throw new NotFoundError(RELEASE_MESSAGES.mapNotFound)
  const { object_key } = readRow(rows[0], { object_key: 'string' }, 'source map')
  const { rowsAffected } = await scope.db.execute({ sql: `DELETE FROM ${scope.t.sourceMaps} WHERE id = ?`, args: [id] })
  if (!rowsAffected) throw new NotFoundError(RELEASE_MESSAGES.mapNotFound)
  await logs.delete(object_key)
  return { id, deleted: true }
}
