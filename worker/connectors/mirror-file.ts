import type { Statement } from '../../drivers/driver.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { OperationalError } from '../errors.ts'
import type { ImportContext } from '../jobs/import-context.ts'
import { duplicateExists } from '../intake/content-duplicates.ts'
import { PREFIX_BYTES } from '../intake/register-incoming.ts'
import { sha256Bytes } from '../intake/sha256-bytes.ts'
import { selectParser } from '../digest/select-parser.ts'
import { toTimestamp } from '../time.ts'
import type { RemoteSource } from './connector-type.ts'
import { remoteName, type PlanEntry } from './connector-plan.ts'
import { Sha256Stream } from './sha256-stream.ts'

/** How one plan line was carried out: bytes fetched, and whether the archive changed. */
export interface MirrorOutcome {
  readonly fetched: number
  readonly updated: boolean
}

export interface MirrorOptions {
  readonly connectorId: number
  readonly moduleId: number | null
  readonly source: RemoteSource
  readonly chunkBytes: number
  /** Called after every fetched chunk (progress rows, lock renewal). */
  readonly onFetched: (bytes: number, path: string) => Promise<void>
}

/** `sources/<app>/<connector>/<sha256(remote path)[:16]>-g<generation>/<name>` (reference §6 step 4, design.md §3). */
export async function mirrorKey(appId: string, connectorId: number, path: string, generation: number): Promise<string> {
  const hash = (await sha256Bytes(new TextEncoder().encode(path))).slice(0, 16)
  const name = remoteName(path).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 200) || 'log'
  return `sources/${appId}/${connectorId}/${hash}-g${generation}/${name}`
}

/**
 * Carries out one plan line under the application's import lock (reference §6 steps 4–6): the remote file's
 * missing bytes are appended to its byte-exact mirror in the log bucket, and the mirror is registered as an
 * archived file whose checkpoint the existing import then reads from — nothing here parses a log. The object
 * is written before the rows that describe it, in one batch, so an interruption leaves either the old state
 * (the next run fetches again) or the new one; never rows pointing past the mirror.
 */
export async function mirrorEntry(ctx: ImportContext, entry: PlanEntry, options: MirrorOptions): Promise<MirrorOutcome> {
  const { scope } = ctx
  const { t } = scope
  const now = toTimestamp(ctx.now())
  const file = entry.file
  const stream = entry.stream
  const modifiedAt = file.modifiedAt ?? now
  if (stream) {
    const moved = entry.action === 'rename' ? { remote_path: file.path, generation: entry.generation } : { remote_path: stream.remote_path, generation: stream.generation }
    if (file.size <= stream.fetched_offset) {
      // Nothing to fetch: the identity (and a renamed path) is recorded; the import reads any local tail — also
      // an unterminated last line held back by the previous run, now that the file has stopped changing.
      await scope.db.batch([
        {
          sql: `UPDATE ${t.sourceStreams} SET remote_path = ?, generation = ?, remote_identity = ?, remote_size = ?, remote_modified_at = ?, last_synced_at = ? WHERE id = ?`,
          args: [moved.remote_path, moved.generation, file.identity, file.size, file.modifiedAt, now, stream.id],
        },
        { sql: `UPDATE ${t.sourceFiles} SET size = ? WHERE id = ? AND size < ?`, args: [stream.fetched_offset, stream.source_file_id, stream.fetched_offset] },
      ])
      return { fetched: 0, updated: entry.action === 'rename' }
    }
    const written = await writeMirror(ctx, stream.local_path, file.size, stream.fetched_offset, options, file, null)
    const statements: Statement[] = [
      {
        sql: `UPDATE ${t.sourceStreams} SET remote_path = ?, generation = ?, remote_identity = ?, remote_size = ?, fetched_offset = ?, remote_modified_at = ?, prefix_hash = ?, last_synced_at = ? WHERE id = ?`,
        args: [moved.remote_path, moved.generation, file.identity, file.size, file.size, file.modifiedAt, written.prefixHash, now, stream.id],
      },
      { sql: `UPDATE ${t.sourceFiles} SET size = ?, modified_at = ?, imported_at = ? WHERE id = ?`, args: [written.readable, modifiedAt, now, stream.source_file_id] },
      { sql: `UPDATE ${t.fileImports} SET etag = ?, prefix_hash = ?, updated_at = ? WHERE source_file_id = ?`, args: [file.identity, written.prefixHash, now, stream.source_file_id] },
      { sql: `DELETE FROM ${t.fileContents} WHERE source_file_id = ?`, args: [stream.source_file_id] },
      { sql: `INSERT INTO ${t.fileContents} (source_file_id, sha256) VALUES (?, ?)`, args: [stream.source_file_id, written.sha256] },
    ]
    await scope.db.batch(statements)
    return { fetched: file.size - stream.fetched_offset, updated: true }
  }

  // A new generation: new, rotation, reconcile or already_ingested.
  const key = await mirrorKey(scope.app.id, options.connectorId, file.path, entry.generation)
  const written = await writeMirror(ctx, key, file.size, 0, options, file, entry.manual?.size ?? null)
  const name = remoteName(file.path)
  // A manual import of the same start (reference §6 "reconcile"): its events are already counted, so the
  // checkpoint starts where it ended — but only when the mirror's first bytes hash to that file's whole content.
  const reconciled = entry.manual !== null && entry.manual.sha256 !== null && written.manualSha256 === entry.manual.sha256
  const parser = reconciled && entry.manual!.parser_id ? { id: entry.manual!.parser_id, logType: entry.manual!.log_type } : selectParser(name, new TextDecoder().decode(written.head))
  const startAt = reconciled ? entry.manual!.size : 0
  const fileId = `(SELECT id FROM ${t.sourceFiles} WHERE path = ?)`
  await namedBatch(scope.db, {
    stream: {
      sql: `INSERT INTO ${t.sourceStreams} (connector_id, module_id, remote_path, remote_identity, generation, local_path, remote_size, fetched_offset, remote_modified_at, prefix_hash, last_synced_at, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [options.connectorId, options.moduleId, file.path, file.identity, entry.generation, key, file.size, file.size, file.modifiedAt, written.prefixHash, now, now],
    },
    file: {
      sql: `INSERT INTO ${t.sourceFiles} (path, size, modified_at, last_offset, imported_at, created_at, parser_version, log_type, channel, module_id, source_stream_id)
        VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, (SELECT id FROM ${t.sourceStreams} WHERE local_path = ?))`,
      args: [key, written.readable, modifiedAt, now, now, ctx.version, parser.logType, name, options.moduleId, key],
    },
    state: {
      sql: `INSERT INTO ${t.fileImports} (source_file_id, origin_path, etag, prefix_hash, parser_id, next_offset, inside_event, occurrence_count, updated_at)
        VALUES (${fileId}, NULL, ?, ?, ?, ?, 0, 0, ?)`,
      args: [key, file.identity, written.prefixHash, parser.id, startAt, now],
    },
    content: { sql: `INSERT INTO ${t.fileContents} (source_file_id, sha256) VALUES (${fileId}, ?)`, args: [key, written.sha256] },
    // The same bytes as another archived file of the module (an upload of this very file): nothing to read twice.
    duplicate: {
      sql: `UPDATE ${t.fileImports} SET next_offset = ?, inside_event = 0 WHERE source_file_id = ${fileId} AND ${duplicateExists(scope, fileId)}`,
      args: [written.readable, key, written.sha256, key],
    },
    link: { sql: `UPDATE ${t.sourceStreams} SET source_file_id = ${fileId} WHERE local_path = ?`, args: [key, key] },
  })
  return { fetched: file.size, updated: true }
}

interface WrittenMirror {
  readonly sha256: string
  /**
   * How much of the mirror the import may read: up to the last line break of the bytes fetched now when they end
   * inside a line (a remote log is usually being written; the rest of that line arrives with the next append),
   * else all of it. A last line that never ends is read by the next run that finds the file unchanged.
   */
  readonly readable: number
  /** SHA-256 of the first min(size, PREFIX_BYTES) bytes (as file_imports.prefix_hash of an upload). */
  readonly prefixHash: string
  readonly head: Uint8Array
  /** SHA-256 of the first `manualSize` bytes, when asked for. */
  readonly manualSha256: string | null
}

/**
 * Writes the mirror at `key` as its first `keep` bytes (already mirrored, read back from the bucket) followed by
 * the remote bytes [keep, size), streamed in `chunkBytes` ranged reads, hashing as it goes. The log bucket has no
 * append, so an append rewrites the object; a stream that fails midway stores nothing (LogStore.write) and the
 * previous mirror stays, so a dropped connection loses no byte and counts none twice.
 */
async function writeMirror(
  ctx: ImportContext,
  key: string,
  size: number,
  keep: number,
  options: MirrorOptions,
  file: PlanEntry['file'],
  manualSize: number | null,
): Promise<WrittenMirror> {
  const hash = new Sha256Stream()
  const manualHash = manualSize !== null ? new Sha256Stream() : null
  const headLength = Math.min(size, PREFIX_BYTES)
  const head = new Uint8Array(headLength)
  let position = 0
  let lastBreak = -1
  let failure: unknown = null
  const take = (bytes: Uint8Array) => {
    if (position >= keep) {
      const at = bytes.lastIndexOf(0x0a)
      if (at >= 0) lastBreak = position + at
    }
    hash.update(bytes)
    if (position < headLength) head.set(bytes.subarray(0, headLength - position), position)
    if (manualHash && position < manualSize!) manualHash.update(bytes.subarray(0, manualSize! - position))
    position += bytes.length
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (position >= size) {
          controller.close()
          return
        }
        const length = Math.min(options.chunkBytes, size - position)
        let bytes: Uint8Array
        if (position < keep) {
          const local = await ctx.logs.read(key, position, Math.min(length, keep - position))
          if (local === null || local.length === 0) throw new OperationalError(`The mirror of ${file.path} is missing from the log bucket; it will be fetched again as a new file.`)
          bytes = local
        } else {
          bytes = await options.source.read(file, position, length)
          await options.onFetched(bytes.length, file.path)
        }
        take(bytes)
        controller.enqueue(bytes)
      } catch (error) {
        failure = error
        controller.error(error)
      }
    },
  })
  try {
    await ctx.logs.write(key, body, size)
  } catch (error) {
    if (failure instanceof Error) throw failure
    throw error instanceof OperationalError ? error : new OperationalError(`${file.path}: the mirror could not be written (${error instanceof Error ? error.message : String(error)}).`)
  }
  const readable = lastBreak >= 0 && lastBreak < size - 1 ? lastBreak + 1 : size
  return { sha256: hash.hex(), readable, prefixHash: await sha256Bytes(head), head, manualSha256: manualHash?.hex() ?? null }
}
