import type { Statement } from '../../drivers/driver.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { OperationalError } from '../errors.ts'
import { SAMPLE_BYTES, selectParser } from '../digest/select-parser.ts'
import { deleteOccurrences } from '../digest/persist/delete-occurrences.ts'
import { rebuildChannelsStatements } from '../digest/persist/group-channels.ts'
import { toTimestamp } from '../time.ts'
import { selectFileStates, toFileState } from '../jobs/file-state.ts'
import { archiveCopy } from './archive-copy.ts'
import { duplicateExists, originalPath } from './content-duplicates.ts'
import { addByType } from '../jobs/import-result.ts'
import type { ImportContext } from '../jobs/import-context.ts'
import { clearFailureStatement, fileRef, isSetAside } from '../jobs/failed-files.ts'
import { collisionName, isSafeRelativePath, splitIncomingPath } from './log-file-name.ts'
import { processedPrefix } from './log-storage.ts'
import { moduleForFolder, type FolderModule } from './module-for-folder.ts'
import { sha256Bytes } from './sha256-bytes.ts'
import type { LogStore, StoredLog } from './log-store.ts'
import { clearAccessRollupStatement } from '../digest/access-rollup.ts'

/** The prefix whose hash tells an appended file (same start) from a replaced or rotated one. */
export const PREFIX_BYTES = SAMPLE_BYTES

const decoder = new TextDecoder()

/**
 * Moves one object — dropped into `incoming/<app>/` or an upload staged under `uploads/<app>/` — into the
 * archive and records it as a source file (reference §6 "import-incoming", §2.9), without reading its events
 * yet: they are read from the archive afterwards, in budgeted runs that resume from the file's checkpoint. A
 * file is known by the path it arrived under (`relative`):
 * - unchanged (size, etag, import version, log type and module as recorded): skipped;
 * - longer or equal with the same first bytes: an append — the archive is replaced and only the tail is read;
 * - shorter, different first bytes, or another log type/module: a rotation — its occurrences are cleared
 *   (issues recomputed) and it is read again from byte 0;
 * - whatever its name, content another file already holds: already imported (content-duplicates.ts).
 * Each step is ordered so that an interruption leaves a state the next run completes without duplicates.
 */
export async function registerIncoming(ctx: ImportContext, object: StoredLog, relative: string, modules: Map<string, FolderModule | null>): Promise<void> {
  const { scope, logs } = ctx
  const { t, app } = scope
  if (!isSafeRelativePath(relative)) throw new OperationalError('The path is not safe to import; the file was left in incoming.')
  const { folder, rest, name } = splitIncomingPath(relative)
  let module: FolderModule | null = null
  if (folder !== null) {
    if (!modules.has(folder)) modules.set(folder, await moduleForFolder(scope, folder, toTimestamp(ctx.now())))
    module = modules.get(folder) ?? null
  }
  const head = await logs.read(object.key, 0, Math.min(object.size, PREFIX_BYTES))
  if (head === null) throw new OperationalError('The file disappeared from incoming before it could be imported.')
  const parser = selectParser(name, decoder.decode(head))
  const plainKey = `${processedPrefix(app.id)}${module ? `${module.slug}/` : ''}${rest}`
  const { found, owner } = await namedBatch(
    scope.db,
    { found: selectFileStates(scope, 'f.origin_path = ?', [relative]), owner: { sql: `SELECT id FROM ${t.sourceFiles} WHERE path = ?`, args: [plainKey] } },
    { mode: 'read' },
  )
  const existing = found.rows[0] ? toFileState(found.rows[0]) : null
  const moduleId = module?.id ?? null
  const now = toTimestamp(ctx.now())
  const facts = { size: object.size, etag: object.etag, modifiedAt: toTimestamp(object.uploaded), parserId: parser.id, logType: parser.logType, moduleId, channel: name }

  if (existing === null) {
    const key = owner.rows.length > 0 || (await takenByOther(logs, plainKey, relative)) ? await suffixed(plainKey, relative, now) : plainKey
    const sha256 = await archiveCopy(logs, object, key, relative)
    const { registered } = await namedBatch(scope.db, {
      file: {
        sql: `INSERT INTO ${t.sourceFiles} (path, size, modified_at, last_offset, imported_at, created_at, parser_version, log_type, channel, module_id)
          VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`,
        args: [key, facts.size, facts.modifiedAt, now, now, ctx.version, facts.logType, facts.channel, moduleId],
      },
      state: {
        // Same content as another file: nothing to read (the checkpoint starts at the end).
        sql: `INSERT INTO ${t.fileImports} (source_file_id, origin_path, etag, prefix_hash, parser_id, next_offset, inside_event, occurrence_count, updated_at)
          SELECT s.id, ${cast(ctx)}, ${cast(ctx)}, ${cast(ctx)}, ${cast(ctx)}, CASE WHEN ${duplicateExists(scope, 's.id')} THEN s.size ELSE 0 END, 0, 0, ${cast(ctx)}
          FROM ${t.sourceFiles} s WHERE s.path = ?`,
        args: [relative, facts.etag, await sha256Bytes(head), facts.parserId, sha256, now, key],
      },
      content: { sql: `INSERT INTO ${t.fileContents} (source_file_id, sha256) SELECT id, ${cast(ctx)} FROM ${t.sourceFiles} WHERE path = ?`, args: [sha256, key] },
      registered: { sql: `SELECT s.id, ${originalPath(scope, 's.id')} AS original FROM ${t.sourceFiles} s WHERE s.path = ?`, args: [sha256, key] },
    })
    const row = registered.rows[0]!
    ctx.touched.add(Number(row.id))
    noteDuplicate(ctx, relative, row.original)
    await finish(ctx, object, facts.logType)
    return
  }

  const failure = ctx.failures.get(fileRef(existing.id))
  const unchanged =
    existing.size === facts.size &&
    existing.etag === facts.etag &&
    existing.parser_version === ctx.version &&
    existing.log_type === facts.logType &&
    existing.module_id === moduleId
  if (unchanged) {
    if (!(await logs.head(existing.path))) await archiveCopy(logs, object, existing.path, relative)
    // Uploading a set-aside file again is one way to retry it.
    if (isSetAside(failure)) {
      await scope.db.execute(clearFailureStatement(scope, failure!.ref))
      ctx.failures.delete(failure!.ref)
    }
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
      clearAccessRollupStatement(scope, existing.id),
    ])
  }
  const sha256 = await archiveCopy(logs, object, existing.path, relative)
  // An append keeps its checkpoint; a file last read under another import version restarts (importFile clears it).
  const nextOffset = rotated || existing.parser_version !== ctx.version ? 0 : existing.next_offset
  const insideEvent = nextOffset === existing.next_offset && !rotated ? existing.inside_event : 0
  const statements: Statement[] = [
    {
      sql: `UPDATE ${t.sourceFiles} SET size = ?, modified_at = ?, imported_at = ?, log_type = ?, channel = ?, module_id = ?${rotated ? ', parser_version = ?, last_offset = 0' : ''} WHERE id = ?`,
      args: [facts.size, facts.modifiedAt, now, facts.logType, facts.channel, moduleId, ...(rotated ? [ctx.version] : []), existing.id],
    },
    // A file registered before it had a channel (or under another): its issues' channel rows follow (migration 0018).
    ...(existing.channel !== facts.channel
      ? rebuildChannelsStatements(scope, `(SELECT gx.group_id FROM ${t.groupSources} gx WHERE gx.source_file_id = ?)`, [existing.id])
      : []),
    {
      sql: `UPDATE ${t.fileImports} SET etag = ?, prefix_hash = ?, parser_id = ?, next_offset = ?, inside_event = ?, updated_at = ? WHERE source_file_id = ?`,
      args: [facts.etag, await sha256Bytes(head), rotated ? facts.parserId : (existing.parser_id ?? facts.parserId), nextOffset, insideEvent, now, existing.id],
    },
    {
      // Now the same content as another file (whatever it adds was imported there): nothing more to read.
      sql: `UPDATE ${t.fileImports} SET next_offset = ?, inside_event = 0 WHERE source_file_id = ? AND ${duplicateExists(scope, '?')}`,
      args: [facts.size, existing.id, sha256, existing.id],
    },
    { sql: `DELETE FROM ${t.fileContents} WHERE source_file_id = ?`, args: [existing.id] },
    { sql: `INSERT INTO ${t.fileContents} (source_file_id, sha256) VALUES (?, ?)`, args: [existing.id, sha256] },
  ]
  const { original } = await namedBatch(scope.db, {
    updates: statements,
    // New content gets fresh attempts (a re-upload retries a set-aside file).
    retry: failure ? clearFailureStatement(scope, failure.ref) : null,
    original: { sql: `SELECT ${originalPath(scope, '?')} AS original FROM ${t.fileImports} WHERE source_file_id = ?`, args: [sha256, existing.id, existing.id] },
  })
  if (failure) ctx.failures.delete(failure.ref)
  ctx.touched.add(existing.id)
  noteDuplicate(ctx, relative, original.rows[0]?.original)
  await finish(ctx, object, facts.logType)
}

/** Reports a file whose content was found under another name: already imported, so skipped. */
function noteDuplicate(ctx: ImportContext, path: string, original: unknown): void {
  if (original === null || original === undefined) return
  ctx.alreadyIngested.push({ path, same_as: String(original) })
  ctx.result.skipped++
}

/** Deletes the incoming (or staged) object and counts the file as processed (moved out of incoming). */
async function finish(ctx: ImportContext, object: StoredLog, logType: string): Promise<void> {
  await ctx.logs.delete(object.key)
  ctx.result.processed++
  addByType(ctx.result, logType, 0)
}

/** The archive key holds an object that did not come from this incoming path (another file, or foreign). */
async function takenByOther(logs: LogStore, key: string, relative: string): Promise<boolean> {
  const head = await logs.head(key)
  return head !== null && head.origin !== relative
}

async function suffixed(key: string, relative: string, now: string): Promise<string> {
  const cut = key.lastIndexOf('/') + 1
  const hash6 = (await sha256Bytes(new TextEncoder().encode(`${relative}|${now}|${Math.random()}`))).slice(0, 6)
  return key.slice(0, cut) + collisionName(key.slice(cut), now, hash6)
}

function cast(ctx: ImportContext): string {
  return ctx.scope.db.dialect.castText('?')
}
