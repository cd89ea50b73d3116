import type { Statement } from '../../drivers/driver.ts'
import { OperationalError } from '../errors.ts'
import { SAMPLE_BYTES, selectParser } from '../ingest/select-parser.ts'
import { deleteOccurrences } from '../ingest/persist/delete-occurrences.ts'
import { toTimestamp } from '../time.ts'
import { selectFileStates, toFileState } from './file-state.ts'
import { addByType } from './import-result.ts'
import type { ImportContext } from './import-context.ts'
import { collisionName, isSafeRelativePath, splitIncomingPath } from './log-file-name.ts'
import { incomingPrefix, processedPrefix, readRange } from './log-storage.ts'
import { moduleForFolder, type FolderModule } from './module-for-folder.ts'
import { sha256Bytes } from './sha256-bytes.ts'

/** The prefix whose hash tells an appended file (same start) from a replaced or rotated one. */
export const PREFIX_BYTES = SAMPLE_BYTES

const decoder = new TextDecoder()

/**
 * Moves one object from `incoming/<app>/` into the archive and records it as a source file (reference §6
 * "import-incoming", §2.9), without reading its events yet — they are read from the archive afterwards, in
 * budgeted runs that resume from the file's checkpoint. A file is known by the path it arrived under:
 * - unchanged (size, etag, import version, log type and module as recorded): skipped;
 * - longer or equal with the same first bytes: an append — the archive is replaced and only the tail is read;
 * - shorter, different first bytes, or another log type/module: a rotation — its occurrences are cleared
 *   (issues recomputed) and it is read again from byte 0.
 * Each step is ordered so that an interruption leaves a state the next run completes without duplicates.
 */
export async function registerIncoming(ctx: ImportContext, object: R2Object, modules: Map<string, FolderModule | null>): Promise<void> {
  const { scope, bucket } = ctx
  const { t, app } = scope
  const relative = object.key.slice(incomingPrefix(app.id).length)
  if (!isSafeRelativePath(relative)) throw new OperationalError('The path is not safe to import; the file was left in incoming.')
  const { folder, rest, name } = splitIncomingPath(relative)
  let module: FolderModule | null = null
  if (folder !== null) {
    if (!modules.has(folder)) modules.set(folder, await moduleForFolder(scope, folder, toTimestamp(ctx.now())))
    module = modules.get(folder) ?? null
  }
  const head = await readRange(bucket, object.key, 0, Math.min(object.size, PREFIX_BYTES))
  if (head === null) throw new OperationalError('The file disappeared from incoming before it could be imported.')
  const parser = selectParser(name, decoder.decode(head))
  const plainKey = `${processedPrefix(app.id)}${module ? `${module.slug}/` : ''}${rest}`
  const [found, owner] = await scope.db.batch(
    [selectFileStates(scope, 'f.origin_path = ?', [relative]), { sql: `SELECT id FROM ${t.sourceFiles} WHERE path = ?`, args: [plainKey] }],
    { mode: 'read' },
  )
  const existing = found!.rows[0] ? toFileState(found!.rows[0]) : null
  const moduleId = module?.id ?? null
  const now = toTimestamp(ctx.now())
  const facts = { size: object.size, etag: object.etag, modifiedAt: toTimestamp(object.uploaded), parserId: parser.id, logType: parser.logType, moduleId, channel: name }

  if (existing === null) {
    const key = owner!.rows.length > 0 || (await takenByOther(bucket, plainKey, relative)) ? await suffixed(plainKey, relative, now) : plainKey
    await archive(ctx, object, key, relative)
    const inserted = await scope.db.batch([
      {
        sql: `INSERT INTO ${t.sourceFiles} (path, size, modified_at, last_offset, imported_at, created_at, parser_version, log_type, channel, module_id)
          VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`,
        args: [key, facts.size, facts.modifiedAt, now, now, ctx.version, facts.logType, facts.channel, moduleId],
      },
      {
        sql: `INSERT INTO ${t.fileImports} (source_file_id, origin_path, etag, prefix_hash, parser_id, next_offset, inside_event, occurrence_count, updated_at)
          SELECT id, ${cast(ctx)}, ${cast(ctx)}, ${cast(ctx)}, ${cast(ctx)}, 0, 0, 0, ${cast(ctx)} FROM ${t.sourceFiles} WHERE path = ?`,
        args: [relative, facts.etag, await sha256Bytes(head), facts.parserId, now, key],
      },
      { sql: `SELECT id FROM ${t.sourceFiles} WHERE path = ?`, args: [key] },
    ])
    ctx.touched.add(Number(inserted[2]!.rows[0]!.id))
    await finish(ctx, object, facts.logType)
    return
  }

  const unchanged =
    existing.size === facts.size &&
    existing.etag === facts.etag &&
    existing.parser_version === ctx.version &&
    existing.log_type === facts.logType &&
    existing.module_id === moduleId
  if (unchanged) {
    if (!(await bucket.head(existing.path))) await archive(ctx, object, existing.path, relative)
    ctx.touched.add(existing.id)
    if (existing.next_offset >= existing.size) ctx.result.skipped++
    await finish(ctx, object, facts.logType)
    return
  }
  const prefixHash = await sha256Bytes(head.subarray(0, Math.min(existing.size, PREFIX_BYTES)))
  const rotated =
    facts.size < existing.size || prefixHash !== existing.prefix_hash || existing.log_type !== facts.logType || existing.module_id !== moduleId
  if (rotated) {
    // Cleared first: should the copy below be interrupted, the row reads as an empty file, never as the old one.
    await deleteOccurrences(scope, { where: 'source_file_id = ?', args: [existing.id] }, [
      { sql: `UPDATE ${t.sourceFiles} SET size = 0, last_offset = 0 WHERE id = ?`, args: [existing.id] },
      { sql: `UPDATE ${t.fileImports} SET next_offset = 0, inside_event = 0, etag = NULL, prefix_hash = NULL, updated_at = ? WHERE source_file_id = ?`, args: [now, existing.id] },
    ])
  }
  await archive(ctx, object, existing.path, relative)
  // An append keeps its checkpoint; a file last read under another import version restarts (importFile clears it).
  const nextOffset = rotated || existing.parser_version !== ctx.version ? 0 : existing.next_offset
  const statements: Statement[] = [
    {
      sql: `UPDATE ${t.sourceFiles} SET size = ?, modified_at = ?, imported_at = ?, log_type = ?, channel = ?, module_id = ?${rotated ? ', parser_version = ?, last_offset = 0' : ''} WHERE id = ?`,
      args: [facts.size, facts.modifiedAt, now, facts.logType, facts.channel, moduleId, ...(rotated ? [ctx.version] : []), existing.id],
    },
    {
      sql: `UPDATE ${t.fileImports} SET etag = ?, prefix_hash = ?, parser_id = ?, next_offset = ?, inside_event = ?, updated_at = ? WHERE source_file_id = ?`,
      args: [facts.etag, await sha256Bytes(head), rotated ? facts.parserId : (existing.parser_id ?? facts.parserId), nextOffset, nextOffset === existing.next_offset && !rotated ? existing.inside_event : 0, now, existing.id],
    },
  ]
  await scope.db.batch(statements)
  ctx.touched.add(existing.id)
  await finish(ctx, object, facts.logType)
}

/** Copies the incoming object to its archive key (R2 has no server-side copy: the body streams through). */
async function archive(ctx: ImportContext, object: R2Object, key: string, relative: string): Promise<void> {
  const source = await ctx.bucket.get(object.key, { onlyIf: { etagMatches: object.etag } })
  if (source === null || !('body' in source)) throw new OperationalError('The file changed or disappeared while it was being imported; try again.')
  await ctx.bucket.put(key, source.body, { customMetadata: { origin: relative }, httpMetadata: { contentType: 'text/plain; charset=utf-8' } })
}

/** Deletes the incoming object and counts the file as processed (moved out of incoming). */
async function finish(ctx: ImportContext, object: R2Object, logType: string): Promise<void> {
  await ctx.bucket.delete(object.key)
  ctx.result.processed++
  addByType(ctx.result, logType, 0)
}

/** The archive key holds an object that did not come from this incoming path (another file, or foreign). */
async function takenByOther(bucket: R2Bucket, key: string, relative: string): Promise<boolean> {
  const head = await bucket.head(key)
  return head !== null && head.customMetadata?.origin !== relative
}

async function suffixed(key: string, relative: string, now: string): Promise<string> {
  const cut = key.lastIndexOf('/') + 1
  const hash6 = (await sha256Bytes(new TextEncoder().encode(`${relative}|${now}|${Math.random()}`))).slice(0, 6)
  return key.slice(0, cut) + collisionName(key.slice(cut), now, hash6)
}

function cast(ctx: ImportContext): string {
  return ctx.scope.db.dialect.castText('?')
}

