import type { Statement } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { jsonParameterGroups } from './json-parameters.ts'
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
  /** Pending lines in file order: start offset and the ids of their path row and agent row. */
  private starts: number[] = []
  private pathIds: number[] = []
  private agentIds: number[] = []
  /** Rollup rows by id: `[day, kind, status_class, method, item]`, and ids by row (cap already applied). */
  private readonly rows: string[][] = []
  private readonly ids = new Map<string, number>()
  /**
   * Line values → row id, so a repeated line costs a few lookups of the strings the parser made, without
   * building a key (measured: a concatenated key per line cost more than the rest of the rollup). Per day:
   * path → (method code × 10 + status digit) → id, and agent → id. Started over when large: a scanner's random
   * paths would otherwise grow it by a line each; the caps bound `rows` anyway.
   */
  private seen = new Map<string, DayCache>()
  private seenSize = 0
  private methodCodes = new Map<string, number>()
  private lastDay = ''
  private today: DayCache = { paths: new Map(), agents: new Map() }
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
      const method = typeof context.method === 'string' ? context.method : ''
      const path = typeof context.path === 'string' ? context.path : ''
      const agent = typeof context.user_agent === 'string' ? context.user_agent : ''
      if (this.seenSize > SEEN_LIMIT) this.forget()
      if (day !== this.lastDay) {
        let cache = this.seen.get(day)
        if (cache === undefined) this.seen.set(day, (cache = { paths: new Map(), agents: new Map() }))
        this.today = cache
        this.lastDay = day
      }
      let methodCode = this.methodCodes.get(method)
      if (methodCode === undefined) this.methodCodes.set(method, (methodCode = this.methodCodes.size))
      const code = methodCode * 10 + (Math.floor(status / 100) % 10)
      let byCode = this.today.paths.get(path)
      if (byCode === undefined) {
        this.today.paths.set(path, (byCode = new Map()))
        this.seenSize++
      }
      let pathId = byCode.get(code)
      if (pathId === undefined) {
        pathId = this.row([day, 'p', statusClass(status), capped(this.methods, day, method.slice(0, METHOD_CHARS), METHODS_PER_DAY), capped(this.paths, day, cut(path), PATHS_PER_DAY)])
        byCode.set(code, pathId)
        this.seenSize++
      }
      let agentId = this.today.agents.get(agent)
      if (agentId === undefined) {
        agentId = this.row([day, 'a', '', '', capped(this.agents, day, cut(agent.trim()), AGENTS_PER_DAY)])
        this.today.agents.set(agent, agentId)
        this.seenSize++
      }
      this.starts.push(event.byteStart)
      this.pathIds.push(pathId)
      this.agentIds.push(agentId)
    }
  }

  /** The upserts counting the pending lines that start before `upTo`, which are then forgotten. */
  take(upTo: number): Statement[] {
    let n = 0
    while (n < this.starts.length && this.starts[n]! < upTo) n++
    if (n === 0) return []
    const counts = new Uint32Array(this.rows.length)
    const touched: number[] = []
    for (let i = 0; i < n; i++) {
      const pathId = this.pathIds[i]!
      if (counts[pathId]!++ === 0) touched.push(pathId)
      const agentId = this.agentIds[i]!
      if (counts[agentId]!++ === 0) touched.push(agentId)
    }
    this.starts.splice(0, n)
    this.pathIds.splice(0, n)
    this.agentIds.splice(0, n)
    return jsonParameterGroups(touched.map((id) => [...this.rows[id]!, counts[id]!])).map((parameters) => upsertStatement(this.scope, this.sourceFileId, parameters))
  }

  private forget(): void {
    this.seen = new Map()
    this.methodCodes = new Map()
    this.seenSize = 0
    this.lastDay = ''
  }

  /** The id of a rollup row (newline-joined: no part can hold one, the parser being line-based). */
  private row(row: string[]): number {
    const key = row.join('\n')
    let id = this.ids.get(key)
    if (id === undefined) {
      id = this.rows.length
      this.rows.push(row)
      this.ids.set(key, id)
    }
    return id
  }
}

/** Line values remembered before the cache starts over (see `AccessRollup.seen`). */
const SEEN_LIMIT = 50_000

interface DayCache {
  readonly paths: Map<string, Map<number, number>>
  readonly agents: Map<string, number>
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
