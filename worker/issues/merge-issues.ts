import type { Dialect } from '../../drivers/index.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { readRow } from '../../drivers/read-row.ts'
import { Fragment, raw, sql } from '../../drivers/sql.ts'
import type { MergeResult } from '../../shared/api.ts'
import { toPositiveInteger } from '../../shared/schemas/fields.ts'
import { MAX_MERGE_IDS, MERGE_MESSAGES, type MergeIssuesInput } from '../../shared/schemas/issue.ts'
import type { Actor } from '../actor.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { InvalidInputError, NotFoundError } from '../errors.ts'
import { heatParameterJson } from './issue-heat.ts'
import { deleteValuesStatement, mergeValuesStatement } from '../digest/issue-value-rollup.ts'

/** What the merge reads of each issue before writing: existence, time range, assignment, which one-per-issue rows it has. */
const ISSUE_SHAPE = {
  id: 'number',
  first_seen: 'string',
  last_seen: 'string',
  heat: 'number',
  assigned_to_id: 'string?',
  assigned_to_label: 'string?',
  linked: 'number',
  released: 'number',
} as const

/** The history note written on the target (reference §2.8: a same-status row just records a note). */
export function mergeNote(ids: readonly number[]): string {
  return `Merged ${ids.map((id) => `#${id}`).join(', ')} into this issue.`
}

/**
 * `POST ?api=merge-issues` (issue 17 item 8): folds issues into a target. Two round trips whatever the number
 * of issues (ids travel as one JSON parameter): one read checks that every issue exists and picks the
 * one-per-issue rows, then ONE atomic batch (on PlanetScale one transaction of 15–17 statements) moves everything
 * keyed by issue id and deletes the merged issues:
 * - occurrences, status history (plus one note row on the target), tags (union; an existing assignment of
 *   the target wins, else `manual` beats other sources), `group_days` (summed), `group_sources`,
 *   `release_groups`; `daily_counts` are per day and severity, untouched;
 * - one-per-issue rows (`group_releases`, `tracker_links`, the local assignment): the target's own wins,
 *   else the lowest merged id that has one; a moved tracker link becomes `via = 'push'`, so a tracker sync
 *   refreshes its state instead of mirroring the merged issue again;
 * - the value breakdown (`issue_values`): summed into the target's, capped as digesting caps it;
 * - `count` = the sum of the per-day counts, `heat` the sum of the heats (issue-heat.ts), `first_seen`/`last_seen`
 *   the extremes of all the issues;
 * - fingerprint aliases (migration 0015): every merged fingerprint, and every alias that pointed at a merged
 *   issue, now names the target's fingerprint, so later events group into the target (no chains).
 * The rest of the target stays its own: status, title, sample, severity, module, kind, origin.
 */
export async function mergeIssues(scope: AppScope, input: MergeIssuesInput, actor: Actor, now: string): Promise<MergeResult> {
  const target = input.target
  const ids = readIds(input.ids, target)
  const { t, db } = scope
  const d = db.dialect
  const all = idsParameter([target, ...ids])
  const merging = idsParameter(ids)
  const { rows } = await db.execute(sql`SELECT g.id, g.first_seen, g.last_seen, g.heat, g.assigned_to_id, g.assigned_to_label,
      (SELECT COUNT(*) FROM ${raw(t.trackerLinks)} l WHERE l.group_id = g.id) AS linked,
      (SELECT COUNT(*) FROM ${raw(t.groupReleases)} r WHERE r.group_id = g.id) AS released
    FROM ${raw(t.groups)} g WHERE g.id IN ${idsIn(d, all)}`)
  const found = new Map(rows.map((row) => readRow(row, ISSUE_SHAPE, 'merged issue')).map((row) => [row.id, row]))
  const missing = [target, ...ids].find((id) => !found.has(id))
  if (missing !== undefined) throw new NotFoundError(`Issue ${missing} does not exist in this application.`)
  const into = found.get(target)!
  const merged = ids.map((id) => found.get(id)!).sort((a, b) => a.id - b.id)
  // From the read, not a subquery: MySQL cannot UPDATE error_groups from a SELECT of error_groups (error 1093).
  const firstSeen = [into, ...merged].map((row) => row.first_seen).reduce((a, b) => (b < a ? b : a))
  const lastSeen = [into, ...merged].map((row) => row.last_seen).reduce((a, b) => (b > a ? b : a))
  // Heat (migration 0013) is a sum over occurrences, so the target's is its own plus the merged issues'. Bound
  // as JSON with an exponent (issue-heat.ts): a bare number this large may bind as an integer. Read here like
  // the time range (error 1093 above): heat that ingest adds to a merged issue between this read and the batch
  // is lost — the target ranks a little lower until its next events; `count` stays exact (from `group_days`).
  const mergedHeat = merged.reduce((sum, row) => sum + row.heat, 0)
  const releaseFrom = into.released > 0 ? undefined : merged.find((row) => row.released > 0)
  const linkFrom = into.linked > 0 ? undefined : merged.find((row) => row.linked > 0)
  const assignedFrom = into.assigned_to_id !== null ? into : (merged.find((row) => row.assigned_to_id !== null) ?? into)

  const G = raw(t.groups)
  const inMerging = idsIn(d, merging)
  // The target's id from its row, not a bare parameter: PostgreSQL types a SELECT-list parameter as text.
  const toTarget = sql`JOIN ${G} tg ON tg.id = ${target}`
  const rel = d.quote('release')
  const { result } = await namedBatch(db, {
    // Row locks first (PostgreSQL/MySQL), as every issue writer takes them (issue-status.ts `lockIssueRows`).
    lock: sql`UPDATE ${G} SET status_updated_at = status_updated_at WHERE id IN ${idsIn(d, all)}`,
    // Aliases that named a merged issue name the target now (never a chain); then the merged fingerprints.
    repoint: sql`UPDATE ${raw(t.issueAliases)} SET target_fingerprint = (SELECT tg.fingerprint FROM ${G} tg WHERE tg.id = ${target})
      WHERE target_fingerprint IN (SELECT g.fingerprint FROM ${G} g WHERE g.id IN ${inMerging})`,
    aliases: withSource(
      (source) => d.upsert(t.issueAliases, ['fingerprint', 'target_fingerprint', 'created_at'], source, ['fingerprint'], { target_fingerprint: d.incoming('target_fingerprint') }),
      sql`SELECT g.fingerprint, tg.fingerprint, ${text(d, now)} FROM ${G} g ${toTarget} WHERE g.id IN ${inMerging}`,
    ),
    history: sql`UPDATE ${raw(t.history)} SET group_id = ${target} WHERE group_id IN ${inMerging}`,
    note: sql`INSERT INTO ${raw(t.history)} (group_id, from_status, to_status, note, created_at, actor)
      SELECT tg.id, tg.status, tg.status, ${text(d, mergeNote(ids))}, ${text(d, now)}, ${text(d, actor.label)} FROM ${G} tg WHERE tg.id = ${target}`,
    occurrences: sql`UPDATE ${raw(t.occurrences)} SET group_id = ${target} WHERE group_id IN ${inMerging}`,
    days: withSource(
      // The day rows carry the target's severity (migration 0017); a day the target has keeps its own.
      (source) => d.upsert(t.groupDays, ['group_id', 'day', 'severity', 'count'], source, ['group_id', 'day'], { count: `${t.groupDays}.count + ${d.incoming('count')}` }),
      sql`SELECT tg.id, gd.day, tg.severity, SUM(gd.count) FROM ${raw(t.groupDays)} gd ${toTarget} WHERE gd.group_id IN ${inMerging} GROUP BY tg.id, gd.day, tg.severity`,
    ),
    // The target's new pairs bring their `group_channels` rows (a trigger: migration 0018).
    sources: withSource(
      (source) => d.insertIgnore(t.groupSources, ['group_id', 'source_file_id'], source, ['group_id', 'source_file_id']),
      sql`SELECT DISTINCT tg.id, gs.source_file_id FROM ${raw(t.groupSources)} gs ${toTarget} WHERE gs.group_id IN ${inMerging}`,
    ),
    releases: withSource(
      (source) => d.insertIgnore(t.releaseGroups, [rel, 'group_id'], source, [rel, 'group_id']),
      sql`SELECT DISTINCT rg.${raw(rel)}, tg.id FROM ${raw(t.releaseGroups)} rg ${toTarget} WHERE rg.group_id IN ${inMerging}`,
    ),
    // Tags: the union. An assignment the target has keeps its source; among the merged ones `manual` wins.
    tags: withSource(
      (source) => d.insertIgnore(t.groupTags, ['group_id', 'tag_id', 'source', 'created_at'], source, ['group_id', 'tag_id']),
      sql`SELECT tg.id, gt.tag_id, CASE WHEN SUM(CASE WHEN gt.source = 'manual' THEN 1 ELSE 0 END) > 0 THEN 'manual' ELSE MIN(gt.source) END, MIN(gt.created_at)
        FROM ${raw(t.groupTags)} gt ${toTarget} WHERE gt.group_id IN ${inMerging} GROUP BY tg.id, gt.tag_id`,
    ),
    groupRelease: releaseFrom ? sql`UPDATE ${raw(t.groupReleases)} SET group_id = ${target} WHERE group_id = ${releaseFrom.id}` : null,
    trackerLink: linkFrom ? sql`UPDATE ${raw(t.trackerLinks)} SET group_id = ${target}, via = 'push' WHERE group_id = ${linkFrom.id}` : null,
    // The per-day counts hold the merged ones now; ingest keeps `count` their sum (manual issues have none).
    target: sql`UPDATE ${G} SET count = COALESCE((SELECT SUM(gd.count) FROM ${raw(t.groupDays)} gd WHERE gd.group_id = ${target}), 0),
        heat = heat + (SELECT h.heat FROM ${new Fragment(d.jsonTuples({ heat: 'real' }, 'h'), [heatParameterJson(mergedHeat)])}),
        first_seen = ${firstSeen}, last_seen = ${lastSeen},
        assigned_to_id = ${assignedFrom.assigned_to_id}, assigned_to_label = ${assignedFrom.assigned_to_label}
      WHERE id = ${target}`,
    // The value breakdown (no foreign key): added to the target's under the cap, then the merged rows go.
    values: mergeValuesStatement(scope, target, inMerging),
    valuesGone: deleteValuesStatement(scope, inMerging),
    // The merged issues' own rows (copied above, or one-per-issue rows not taken) go by ON DELETE CASCADE.
    remove: sql`DELETE FROM ${G} WHERE id IN ${inMerging}`,
    result: sql`SELECT count, first_seen, last_seen FROM ${G} WHERE id = ${target}`,
  })
  const after = readRow(result.rows[0], { count: 'number', first_seen: 'string', last_seen: 'string' }, 'merge target')
  return { target, merged: ids, ...after }
}

/** Ids as the one JSON parameter of `idsIn`. */
function idsParameter(ids: readonly number[]): string {
  return JSON.stringify(ids.map((id) => ({ id })))
}

/** `(SELECT j.id FROM <the JSON ids>)` — any number of ids in one parameter. */
function idsIn(d: Dialect, idsJson: string): Fragment {
  return new Fragment(`(SELECT j.id FROM ${d.jsonRecords({ id: 'integer' }, 'j')})`, [idsJson])
}

/** A text parameter, typed for PostgreSQL's SELECT lists. */
function text(d: Dialect, value: string): Fragment {
  return new Fragment(d.castText('?'), [value])
}

/** A dialect-built INSERT around a row source: the source's arguments are the statement's (dialects add none). */
function withSource(build: (source: string) => string, source: Fragment): Fragment {
  return new Fragment(build(source.sql), source.args)
}

/** Positive integer ids, de-duplicated in order (a repeated id is merged once); 1–MAX_MERGE_IDS; never the target. */
function readIds(values: readonly unknown[], target: number): number[] {
  const ids: number[] = []
  for (const value of values) {
    const id = toPositiveInteger(value)
    if (id === null) throw new InvalidInputError(MERGE_MESSAGES.idsInteger)
    if (id === target) throw new InvalidInputError(MERGE_MESSAGES.targetInIds)
    if (!ids.includes(id)) ids.push(id)
  }
  if (ids.length < 1 || ids.length > MAX_MERGE_IDS) throw new InvalidInputError(MERGE_MESSAGES.idsCount)
  return ids
}

