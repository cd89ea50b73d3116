import type { Statement } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'
import type { LogEvent } from './log-event.ts'

/** The log type whose lines are counted (reference §2.2 row 3, §4.6). */
export const ACCESS_LOG_TYPE = 'nginx_access'

/**
 * Distinct paths (and, separately, user agents) kept per day and file in one import run; later new ones are
 * counted under `OVERFLOW_ITEM`. A scanner spraying random paths would otherwise add a row per request.
 * docs/access-analytics.md "Cardinality".
 */
export const PATHS_PER_DAY = 1000
export const AGENTS_PER_DAY = 200
/** Methods too: nginx logs any upper-case token a client sends as its method (with a 400). */
export const METHODS_PER_DAY = 20
export const OVERFLOW_ITEM = '(other)'
/** Paths and agents are cut to this many UTF-16 units (MySQL's key holds 255 characters). */
export const ITEM_CHARS = 200
const METHOD_CHARS = 16

/** Rows per JSON parameter stay far below D1's 1 MB string limit (wire-protocols.md §3). */
const JSON_BYTES_PER_PARAMETER = 256 * 1024

/**
 * The access-log rollup (issue 14, migration 0009): EVERY line an access log holds is counted at import time,
 * whatever the severity allow-list keeps as occurrences (the reference's analytics only saw the 4xx/5xx the
 * default allow-list stores). Lines are accumulated in memory and written exactly once: `take(upTo)` returns
 * the upserts for the lines that start before `upTo`, and the import folds them into the batch that moves the
 * file's checkpoint to `upTo` — same atomic batch, no extra round trip, and a resumed run re-reads exactly the
 * lines whose counts were not committed. A file read again from byte 0 first drops its rows
 * (`clearAccessRollupStatement`). Kept whether or not the plugin is on, so switching it on shows history.
 */
export class AccessRollup {
  /** Pending lines in file order: start offset, path key, agent key. */
  private starts: number[] = []
  private pathKeys: string[] = []
  private agentKeys: string[] = []
  private readonly paths = new Map<string, Set<string>>()
  private readonly agents = new Map<string, Set<string>>()
  private readonly methods = new Map<string, Set<string>>()

  constructor(
    private readonly scope: AppScope,
    private readonly sourceFileId: number,
  ) {}

  /** Counts a chunk's events (all of them: before the allow-list); other log types cost one comparison. */
  add(events: readonly LogEvent[]): void {
    for (const event of events) {
      if (event.logType !== ACCESS_LOG_TYPE || event.context === null) continue
      const context = event.context
      const day = event.occurredAt.slice(0, 10)
      const status = typeof context.status === 'number' ? context.status : 0
      const method = capped(this.methods, day, typeof context.method === 'string' ? context.method.slice(0, METHOD_CHARS) : '', METHODS_PER_DAY)
      const path = capped(this.paths, day, cut(typeof context.path === 'string' ? context.path : ''), PATHS_PER_DAY)
      const agent = capped(this.agents, day, cut(typeof context.user_agent === 'string' ? context.user_agent.trim() : ''), AGENTS_PER_DAY)
      this.starts.push(event.byteStart)
      // Newline-joined: none of the parts can hold one (the parser is line-based).
      this.pathKeys.push(`${day}\n${statusClass(status)}\n${method}\n${path}`)
      this.agentKeys.push(`${day}\n${agent}`)
    }
  }

  /** The upserts counting the pending lines that start before `upTo`, which are then forgotten. */
  take(upTo: number): Statement[] {
    let n = 0
    while (n < this.starts.length && this.starts[n]! < upTo) n++
    if (n === 0) return []
    const counts = new Map<string, number>()
    for (let i = 0; i < n; i++) {
      const p = `p\n${this.pathKeys[i]}`
      counts.set(p, (counts.get(p) ?? 0) + 1)
      const a = `a\n${this.agentKeys[i]}`
      counts.set(a, (counts.get(a) ?? 0) + 1)
    }
    this.starts.splice(0, n)
    this.pathKeys.splice(0, n)
    this.agentKeys.splice(0, n)
    const rows: unknown[][] = []
    for (const [key, count] of counts) {
      const [kind, day, ...rest] = key.split('\n')
      rows.push(kind === 'p' ? [day, kind, rest[0], rest[1], rest[2], count] : [day, kind, '', '', rest[0], count])
    }
    return [upsertStatement(this.scope, this.sourceFileId, jsonParameters(rows))]
  }
}

/** Drops a file's counts, in the batch that resets its checkpoint to byte 0 (reindex, rotation, new parser). */
export function clearAccessRollupStatement(scope: AppScope, sourceFileId: number): Statement {
  return { sql: `DELETE FROM ${scope.t.accessRollup} WHERE source_file_id = ?`, args: [sourceFileId] }
}

/** `2xx` … from a status code (the reference's classes; a 1xx line is `1xx`). */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`
}

function upsertStatement(scope: AppScope, sourceFileId: number, parameters: string[]): Statement {
  const { t, db } = scope
  const d = db.dialect
  const rows = d.jsonTuples({ day: 'text', kind: 'text', cls: 'text', method: 'text', item: 'text', n: 'integer' }, 'j', parameters.length)
  return {
    // The file id comes through the join, where every engine can type the parameter.
    sql: d.upsert(
      t.accessRollup,
      ['source_file_id', 'day', 'kind', 'status_class', 'method', 'item', 'count'],
      `SELECT s.id, j.day, j.kind, j.cls, j.method, j.item, j.n FROM ${rows} JOIN ${t.sourceFiles} s ON s.id = ? WHERE 1 = 1`,
      ['source_file_id', 'day', 'kind', 'status_class', 'method', 'item'],
      { count: `${t.accessRollup}.count + ${d.incoming('count')}` },
    ),
    args: [...parameters, sourceFileId],
  }
}

/** Rows as JSON arrays, split so that no parameter passes `JSON_BYTES_PER_PARAMETER`. */
function jsonParameters(rows: readonly unknown[][]): string[] {
  const parameters: string[] = []
  let part: string[] = []
  let bytes = 2
  for (const row of rows) {
    const text = JSON.stringify(row)
    if (part.length > 0 && bytes + text.length * 3 > JSON_BYTES_PER_PARAMETER) {
      parameters.push(`[${part.join(',')}]`)
      part = []
      bytes = 2
    }
    part.push(text)
    bytes += text.length * 3 + 1
  }
  parameters.push(`[${part.join(',')}]`)
  return parameters
}

/** `value`, or `OVERFLOW_ITEM` once `limit` other values were seen on `day`. */
function capped(seen: Map<string, Set<string>>, day: string, value: string, limit: number): string {
  let values = seen.get(day)
  if (values === undefined) seen.set(day, (values = new Set()))
  if (values.has(value)) return value
  if (values.size >= limit) return OVERFLOW_ITEM
  values.add(value)
  return value
}

/** At most `ITEM_CHARS` UTF-16 units, never ending inside a surrogate pair. */
function cut(value: string): string {
  if (value.length <= ITEM_CHARS) return value
  const code = value.charCodeAt(ITEM_CHARS - 1)
  return value.slice(0, code >= 0xd800 && code <= 0xdbff ? ITEM_CHARS - 1 : ITEM_CHARS)
}
