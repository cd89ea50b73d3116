import type { Statement } from '../../../drivers/driver.ts'
import { Fragment } from '../../../drivers/sql.ts'
import type { AppScope } from '../../apps/app-scope.ts'

/** One digested event that named a release: its occurrence's key and when it happened. */
export interface ReleasedEvent {
  readonly sourceFileId: number
  /** The occurrence's `byte_start` (its staging row id). */
  readonly byteStart: number
  readonly release: string
  /** `YYYY-MM-DD HH:MM:SS`. */
  readonly occurredAt: string
}

/**
 * The statements that register the releases a digest batch saw (issue 14, "beyond the reference"), placed in
 * the batch's own atomic write after its occurrences carry their `release` — no extra round trip:
 * 1. every version is upserted into `releases`, widening its first/last seen;
 * 2. each (release, issue) pair is remembered in `release_groups`;
 * 3. an issue whose first occurrence with a release is in this batch gets `first_release` (insert-ignore: the
 *    first batch wins; among its events, the earliest staged one);
 * 4. an issue this batch moved from `fixed` to `reoccurred` (its `status_updated_at` is the batch's `now`)
 *    records the release of its new occurrences as `regressed_release`.
 * Only occurrences this batch really inserted (`import_batch`) count, so a re-digest changes nothing.
 */
export function releaseRegistrationStatements(scope: AppScope, events: readonly ReleasedEvent[], importBatch: string, now: string): Statement[] {
  if (events.length === 0) return []
  const { t, db } = scope
  const d = db.dialect
  const rel = d.quote('release')
  const seen = new Map<string, { first: string; last: string }>()
  for (const event of events) {
    const range = seen.get(event.release)
    if (!range) seen.set(event.release, { first: event.occurredAt, last: event.occurredAt })
    else {
      if (event.occurredAt < range.first) range.first = event.occurredAt
      if (event.occurredAt > range.last) range.last = event.occurredAt
    }
  }
  const versions = JSON.stringify([...seen].map(([v, range]) => ({ v, f: range.first, l: range.last })))
  const keys = JSON.stringify(events.map((event) => ({ sf: event.sourceFileId, b: event.byteStart })))
  // The batch's new occurrences that named a release (an index probe per key on (source_file_id, byte_start)).
  const released = `SELECT o.group_id, o.byte_start, o.${rel} AS rel FROM ${d.jsonRecords({ sf: 'integer', b: 'integer' }, 'k')}
    JOIN ${t.occurrences} o ON o.source_file_id = k.sf AND o.byte_start = k.b
    WHERE o.import_batch = ? AND o.${rel} IS NOT NULL`
  return [
    {
      sql: d.upsert(
        t.releases,
        ['version', 'first_seen', 'last_seen', 'created_at'],
        `SELECT r.v, r.f, r.l, ${d.castText('?')} FROM ${d.jsonRecords({ v: 'text', f: 'text', l: 'text' }, 'r')} WHERE 1 = 1`,
        ['version'],
        { first_seen: d.least(`${t.releases}.first_seen`, d.incoming('first_seen')), last_seen: d.greatest(`${t.releases}.last_seen`, d.incoming('last_seen')) },
      ),
      args: [now, versions],
    },
    {
      sql: d.insertIgnore(t.releaseGroups, [rel, 'group_id'], `SELECT DISTINCT n.rel, n.group_id FROM (${released}) n WHERE 1 = 1`, [rel, 'group_id']),
      args: [keys, importBatch],
    },
    {
      sql: d.insertIgnore(
        t.groupReleases,
        ['group_id', 'first_release'],
        `SELECT n.group_id, n.rel FROM (${released}) n
         WHERE n.byte_start = (SELECT MIN(m.byte_start) FROM (${released}) m WHERE m.group_id = n.group_id)`,
        ['group_id'],
      ),
      args: [keys, importBatch, keys, importBatch],
    },
    d.updateFrom(
      t.groupReleases,
      'R',
      { regressed_release: 'x.rel', regressed_at: new Fragment(d.castText('?'), [now]) },
      new Fragment(
        `(SELECT n.group_id, MAX(n.rel) AS rel FROM (${released}) n JOIN ${t.groups} g ON g.id = n.group_id
          WHERE g.status = 'reoccurred' AND g.status_updated_at = ? GROUP BY n.group_id) x`,
        [keys, importBatch, now],
      ),
      'R.group_id = x.group_id',
    ),
  ]
}
