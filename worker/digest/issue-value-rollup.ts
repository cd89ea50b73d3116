import type { Statement } from '../../drivers/driver.ts'
import { Fragment, raw, sql } from '../../drivers/sql.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { jsonParameterGroups } from './json-parameters.ts'
import type { EventRecord } from './persist/event-record.ts'

/** The keys of the per-issue value breakdown (issue 17 item 7: Sentry's tag distribution), in display order. */
export const VALUE_NAMES = ['url', 'user', 'ip', 'environment', 'release', 'server'] as const
export type ValueName = (typeof VALUE_NAMES)[number]

/**
 * Distinct values kept per issue and key; later new ones count under `OTHER_VALUE` (issue 18: the breakdown
 * must not grow with the data). A run caps its own values at this many, and the upsert caps again against
 * the rows already stored, so an issue × key never holds more than 2 × VALUES_PER_NAME rows (+ `(other)`),
 * and once it holds VALUES_PER_NAME no new value is ever added.
 */
export const VALUES_PER_NAME = 50
export const OTHER_VALUE = '(other)'
/** Values are cut to this many UTF-16 units (MySQL's key holds 255 characters). */
export const VALUE_CHARS = 200

/**
 * The values of one event: environment from the occurrence, the rest from its context JSON — the keys
 * Laravel/Monolog processors, JSON-lines loggers, nginx (`ip`, `path`), HTTP ingest and Sentry
 * (`request.url`, `user.{id,email,username,ip_address}`, `server_name`, `release`) write.
 */
export function eventValues(record: Pick<EventRecord, 'environment' | 'context'>, release: string | null = null): [ValueName, string][] {
  const values: [ValueName, string][] = []
  const put = (name: ValueName, value: unknown) => {
    const text = scalar(value)
    if (text !== null) values.push([name, cut(text)])
  }
  const context = parseContext(record.context)
  if (context === null) {
    put('environment', record.environment)
    put('release', release)
    return values
  }
  const request = objectAt(context, 'request')
  const user = context.user
  const userObject = isObject(user) ? user : null
  put('url', first(context.url, request?.url, context.request_url, context.uri, context.path))
  put('user', first(userObject?.id, userObject?.email, userObject?.username, isObject(user) ? null : user, context.user_id, context.userId, context.username))
  put('ip', first(context.ip, context.ip_address, userObject?.ip_address, context.client_ip, context.remote_addr))
  put('environment', record.environment)
  put('release', first(release, context.release))
  put('server', first(context.server_name, context.hostname, context.server))
  return values
}

/**
 * The per-issue value rollup of one digest run (migration 0014): values are counted in memory as events are
 * persisted and written by ONE upsert in a batch the run sends anyway (the import's closing batch, the HTTP
 * ingest digest's batch) — no round trip of its own on d1/libsql/neon. Memory is bounded by the cap: at most
 * VALUES_PER_NAME + 1 entries per issue and key.
 */
export class IssueValueRollup {
  /** fingerprint → key → value → count. */
  private readonly counts = new Map<string, Map<ValueName, Map<string, number>>>()

  add(records: readonly EventRecord[], releaseOf: (record: EventRecord) => string | null = () => null): void {
    for (const record of records) {
      let byName = this.counts.get(record.fingerprint)
      if (byName === undefined) this.counts.set(record.fingerprint, (byName = new Map()))
      for (const [name, value] of eventValues(record, releaseOf(record))) {
        let byValue = byName.get(name)
        if (byValue === undefined) byName.set(name, (byValue = new Map()))
        const key = byValue.has(value) || byValue.size < VALUES_PER_NAME ? value : OTHER_VALUE
        byValue.set(key, (byValue.get(key) ?? 0) + 1)
      }
    }
  }

  /** The upserts adding this run's counts (none when nothing was counted); the counts are then forgotten. */
  take(scope: AppScope): Statement[] {
    const rows: [string, string, string, number][] = []
    for (const [fingerprint, byName] of this.counts) for (const [name, byValue] of byName) for (const [value, n] of byValue) rows.push([fingerprint, name, value, n])
    this.counts.clear()
    if (rows.length === 0) return []
    return jsonParameterGroups(rows).map((parameters) => upsertStatement(scope, parameters))
  }
}

/**
 * A value new to an issue × key that already holds VALUES_PER_NAME values is counted as `(other)`; grouping
 * again after that substitution keeps one row per key (PostgreSQL refuses an upsert touching a row twice).
 */
function upsertStatement(scope: AppScope, parameters: string[]): Statement {
  const { t, db } = scope
  const d = db.dialect
  const IV = t.issueValues
  const rows = d.jsonTuples({ fp: 'text', name: 'text', val: 'text', n: 'integer' }, 'j', parameters.length)
  const kept = `EXISTS (SELECT 1 FROM ${IV} x WHERE x.group_id = g.id AND x.name = j.name AND x.value = j.val)
    OR (SELECT COUNT(*) FROM ${IV} x WHERE x.group_id = g.id AND x.name = j.name) < ${VALUES_PER_NAME}`
  return {
    sql: d.upsert(
      IV,
      ['group_id', 'name', 'value', 'count'],
      `SELECT v.group_id, v.name, v.value, SUM(v.n) FROM (
        SELECT g.id AS group_id, j.name AS name, CASE WHEN ${kept} THEN j.val ELSE ${d.castText('?')} END AS value, j.n AS n
        FROM ${rows} JOIN ${t.groups} g ON g.fingerprint = j.fp
      ) v WHERE 1 = 1 GROUP BY v.group_id, v.name, v.value`,
      ['group_id', 'name', 'value'],
      { count: `${IV}.count + ${d.incoming('count')}` },
    ),
    args: [OTHER_VALUE, ...parameters],
  }
}

/**
 * Deleting occurrences (retention, a reindex, `delete-logs`) scales each affected issue's values by the share
 * of its occurrences left — `group_days` already rebuilt, the issue's `count` not yet — rounding down; run in
 * the deletion's batch (delete-occurrences.ts) between those two steps. The rollup keeps no link to single
 * occurrences (issue 18), so this is proportional, exact when all or none of an issue's occurrences go: a
 * reindexed file's issues drop to zero and its events are counted afresh. `affected` is a subquery of ids
 * whose one parameter is `token`.
 */
export function scaleValuesStatement(scope: AppScope, affected: string, token: string): Statement {
  const { t } = scope
  const IV = t.issueValues
  const left = `COALESCE((SELECT SUM(gd.count) FROM ${t.groupDays} gd WHERE gd.group_id = ${IV}.group_id), 0)`
  const before = `(SELECT g.count FROM ${t.groups} g WHERE g.id = ${IV}.group_id)`
  // (a × b − (a × b) mod c) / c: floor division spelled the same on every engine (MySQL's `/` is decimal).
  return {
    sql: `UPDATE ${IV} SET count = (count * ${left} - (count * ${left}) % ${before}) / ${before}
      WHERE group_id IN ${affected} AND ${before} > 0 AND ${left} < ${before}`,
    args: [token],
  }
}

/**
 * Drops the rows of the `affected` issues scaled down to nothing or no longer existing (emptied issues are
 * deleted in the same batch).
 */
export function orphanValuesStatement(scope: AppScope, affected: string, token: string): Statement {
  const { t } = scope
  return {
    sql: `DELETE FROM ${t.issueValues} WHERE group_id IN ${affected}
      AND (count <= 0 OR NOT EXISTS (SELECT 1 FROM ${t.groups} g WHERE g.id = ${t.issueValues}.group_id))`,
    args: [token],
  }
}

/**
 * A merge (merge-issues.ts) adds the merged issues' values to the target's, under the same cap as digesting: a
 * value the target holds adds to its row; new values are taken most frequent first while the target holds
 * fewer than VALUES_PER_NAME for the key, the rest count as `(other)`. Without it the target's breakdown
 * lacked the merged occurrences (its `count` has them) and the merged issues' rows stayed behind. The merged
 * rows themselves are deleted by `deleteValuesStatement` in the same batch.
 */
export function mergeValuesStatement(scope: AppScope, target: number, merging: Fragment): Fragment {
  const { t, db } = scope
  const d = db.dialect
  const IV = raw(t.issueValues)
  const source = sql`SELECT v.group_id, v.name, v.value, SUM(v.n) FROM (
      SELECT r.group_id AS group_id, r.name AS name, CASE WHEN r.present = 1 OR r.place <= ${raw(String(VALUES_PER_NAME))} - r.held THEN r.value ELSE ${new Fragment(d.castText('?'), [OTHER_VALUE])} END AS value, r.n AS n
      FROM (
        SELECT tg.id AS group_id, m.name AS name, m.value AS value, m.n AS n,
          CASE WHEN EXISTS (SELECT 1 FROM ${IV} x WHERE x.group_id = tg.id AND x.name = m.name AND x.value = m.value) THEN 1 ELSE 0 END AS present,
          (SELECT COUNT(*) FROM ${IV} x WHERE x.group_id = tg.id AND x.name = m.name) AS held,
          ROW_NUMBER() OVER (PARTITION BY m.name ORDER BY m.n DESC, m.value) AS place
        FROM (SELECT iv.name AS name, iv.value AS value, SUM(iv.count) AS n FROM ${IV} iv WHERE iv.group_id IN ${merging} GROUP BY iv.name, iv.value) m
        JOIN ${raw(t.groups)} tg ON tg.id = ${target}
      ) r
    ) v WHERE 1 = 1 GROUP BY v.group_id, v.name, v.value`
  const sqlText = d.upsert(t.issueValues, ['group_id', 'name', 'value', 'count'], source.sql, ['group_id', 'name', 'value'], { count: `${t.issueValues}.count + ${d.incoming('count')}` })
  return new Fragment(sqlText, source.args)
}

/** Deletes the value rows of the issues `ids` names (a subquery of issue ids). */
export function deleteValuesStatement(scope: AppScope, ids: Fragment): Fragment {
  return sql`DELETE FROM ${raw(scope.t.issueValues)} WHERE group_id IN ${ids}`
}

/**
 * The context as an object, cheaply: Laravel puts the exception — its whole stack, most of the text — last
 * (`{"userId":1,"exception":"…"}`), so only what comes before `,"exception":` is parsed (measured: a 6 KB
 * exception context cost ~50 µs to parse whole, a fair share of the import's per-event budget, design.md §5).
 * Only the leading object is handed to JSON.parse: a context is often that object followed by more text (a
 * Laravel `[stacktrace]` block, Monolog's `[]` extra), and a parse that throws costs ~15 µs per event — two
 * per event were 14% of an import's CPU (tools/bench/digest-profile.ts, issue 11).
 */
function parseContext(text: string | null): Record<string, unknown> | null {
  if (text === null || text.charCodeAt(0) !== 123 /* { */) return null
  if (text.startsWith('{"exception":')) return null // nothing but the exception: no value to count
  const cut = text.indexOf(',"exception":')
  const candidate = cut > 0 ? `${text.slice(0, cut)}}` : leadingObject(text)
  if (candidate === null) return null
  const parsed = parseObject(candidate)
  if (parsed !== undefined) return parsed
  // Monolog writes raw line breaks inside JSON strings: escaped, they parse.
  return /[\r\n\t]/.test(candidate) ? (parseObject(candidate.replace(/\r?\n/g, '\\n').replace(/\t/g, '\\t')) ?? null) : null
}

/** The JSON object `text` starts with (up to its closing brace, strings skipped), or null when it never closes. */
function leadingObject(text: string): string | null {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 34 /* " */) {
      // Skip the string; an escaped character never ends it.
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92 /* \ */) i++
    } else if (code === 123 /* { */ || code === 91 /* [ */) depth++
    else if ((code === 125 /* } */ || code === 93 /* ] */) && --depth === 0) return text.slice(0, i + 1)
  }
  return null
}

/** The object `text` holds, null for other JSON, undefined when it is not JSON. */
function parseObject(text: string): Record<string, unknown> | null | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return isObject(value) ? value : null
  } catch {
    return undefined
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function objectAt(object: Record<string, unknown> | null, key: string): Record<string, unknown> | null {
  const value = object?.[key]
  return isObject(value) ? value : null
}

function first(...values: unknown[]): unknown {
  for (const value of values) if (scalar(value) !== null) return value
  return null
}

function scalar(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string') return null
  const text = value.trim()
  return text === '' ? null : text
}

/** At most `VALUE_CHARS` UTF-16 units, never ending inside a surrogate pair. */
function cut(value: string): string {
  if (value.length <= VALUE_CHARS) return value
  const code = value.charCodeAt(VALUE_CHARS - 1)
  return value.slice(0, code >= 0xd800 && code <= 0xdbff ? VALUE_CHARS - 1 : VALUE_CHARS)
}
