import type { AppScope } from '../../apps/app-scope.ts'
import { namedBatch } from '../../../drivers/named-batch.ts'
import type { LogEvent } from '../../digest/log-event.ts'
import { toEventRecord, type EventRecord } from '../../digest/persist/event-record.ts'
import { moduleForFolder } from '../../intake/module-for-folder.ts'
import type { StagedEvent } from './staged-events.ts'

/** The synthetic source file of a module and channel (reference §4.3): `http-ingest/{moduleId|0}/{channel}`. */
export function ingestSourcePath(moduleId: number | null, channel: string): string {
  return `http-ingest/${moduleId ?? 0}/${channel}`
}

/** The events of one synthetic source file, ready to persist. */
export interface SourceRecords {
  readonly sourceFileId: number
  readonly records: EventRecord[]
  /** `[byte_start, release]` of the records that named a release (stored on their occurrences). */
  readonly releases: [number, string][]
  /** The tags each record's event named, by its issue fingerprint. */
  readonly tagged: { fingerprint: string; tags: readonly string[] }[]
}

/**
 * Turns staged events into occurrence records, grouped by their synthetic source file: modules are found or
 * created by name (one round trip per new name), the source files in one round trip. Each event's body is
 * `Class: message` (unless the message already starts with the class), a line break and the stack
 * (reference §4.3 "Processing"); its `byte_start` is its staging row id, unique within the file and the same
 * however often it is digested, so the occurrence insert-ignore stores it once.
 */
export async function toSourceRecords(scope: AppScope, staged: readonly StagedEvent[], now: string): Promise<SourceRecords[]> {
  const modules = new Map<string, number | null>()
  for (const name of new Set(staged.map((s) => s.event.module).filter((name): name is string => name !== null))) {
    modules.set(name, (await moduleForFolder(scope, name, now))?.id ?? null)
  }
  const placed = staged.map((s) => {
    const moduleId = s.event.module === null ? null : (modules.get(s.event.module) ?? null)
    return { staged: s, moduleId, path: ingestSourcePath(moduleId, s.event.channel) }
  })
  const files = await sourceFileIds(scope, placed, now)
  const bySource = new Map<number, SourceRecords>()
  for (const { staged: s, moduleId, path } of placed) {
    const sourceFileId = files.get(path)!
    let group = bySource.get(sourceFileId)
    if (!group) bySource.set(sourceFileId, (group = { sourceFileId, records: [], releases: [], tagged: [] }))
    const record = recordOf(s, moduleId)
    group.records.push(record)
    if (s.event.tags.length > 0) group.tagged.push({ fingerprint: record.fingerprint, tags: s.event.tags })
    if (s.event.release !== null) group.releases.push([s.id, s.event.release])
  }
  return [...bySource.values()]
}

function recordOf(staged: StagedEvent, moduleId: number | null): EventRecord {
  const { event } = staged
  const cls = event.exceptionClass
  const head = cls !== null && !event.message.startsWith(cls) ? `${cls}: ${event.message}` : event.message
  const logEvent: LogEvent = {
    occurredAt: event.occurredAt,
    severity: event.severity,
    environment: event.environment,
    body: event.stack === null ? head : `${head}\n${event.stack}`,
    context: event.context,
    byteStart: staged.id,
    byteEnd: staged.id + 1,
    logType: staged.via,
  }
  return toEventRecord(logEvent, { moduleId, channel: event.channel }, undefined, { exceptionClass: cls, sourceFrame: event.culprit, groupingKey: event.fingerprint, stack: event.stack })
}

/** Finds or creates the synthetic source files in one round trip; path → id. */
async function sourceFileIds(scope: AppScope, placed: readonly { moduleId: number | null; path: string; staged: StagedEvent }[], now: string): Promise<Map<string, number>> {
  const { t, db } = scope
  const d = db.dialect
  const unique = new Map(placed.map((p) => [p.path, { path: p.path, log_type: p.staged.via, channel: p.staged.event.channel, module_id: p.moduleId }]))
  const rows = JSON.stringify([...unique.values()])
  const { found } = await namedBatch(db, {
    create: {
      sql: d.insertIgnore(
        t.sourceFiles,
        ['path', 'size', 'last_offset', 'imported_at', 'created_at', 'parser_version', 'log_type', 'channel', 'module_id'],
        `SELECT j.path, 0, 0, ${d.castText('?')}, ${d.castText('?')}, 0, j.log_type, j.channel, j.module_id
         FROM ${d.jsonRecords({ path: 'text', log_type: 'text', channel: 'text', module_id: 'integer' }, 'j')}
         WHERE NOT EXISTS (SELECT 1 FROM ${t.sourceFiles} s WHERE s.path = j.path)`,
        ['path'],
      ),
      args: [now, now, rows],
    },
    found: { sql: `SELECT s.id, s.path FROM ${t.sourceFiles} s WHERE s.path IN (SELECT j.path FROM ${d.jsonRecords({ path: 'text' }, 'j')})`, args: [rows] },
  })
  return new Map(found.rows.map((row) => [String(row.path), Number(row.id)]))
}
