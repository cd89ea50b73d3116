import { HEX_COLOR_PATTERN, TAG_DEFAULTS } from '../../../shared/constants.ts'
import type { Statement } from '../../../drivers/driver.ts'
import { Fragment } from '../../../drivers/sql.ts'
import type { TrackerProvider } from '../../../shared/schemas/tracker.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { nameKey } from '../../tags/tag-queries.ts'
import { toTimestamp } from '../../time.ts'
import type { ExternalIssue } from './tracker.ts'
import { signatureAssignments, signatureFieldList, signatureFields, signatureFieldTypes, textSignature } from '../../issues/search-signature.ts'

/** Reference §4.5: titles are cut at 500 characters; descriptions kept to 8 KB so a page stays well under D1's 1 MB per bound string. */
const TITLE_MAX = 500
const MESSAGE_MAX = 8_000

/** `sha256('<provider>|<id>')` in hex: the mirror's fingerprint (reference §4.5: `sha256('linear|'+id)`). */
export async function mirrorFingerprint(provider: TrackerProvider, id: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${provider}|${id}`))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** One page's batch: the writes, between counts of the page's mirrors and label tags before and after them. */
export interface MirrorBatch {
  readonly groupsBefore: Statement
  readonly tagsBefore: Statement
  readonly writes: Statement[]
  readonly groupsAfter: Statement
  readonly tagsAfter: Statement
}

/**
 * The statements mirroring one page of tracker issues into issues (reference §4.5's mapping table), for one
 * atomic batch: counts before, the issues (inserted with the tracker's status; on re-sync only the mirrored
 * fields are refreshed — never the local status), the first history note of each new one, the links, the
 * state of issues pushed from Loupe (those are not mirrored again), the label tags (created when missing,
 * attached with source `tracker`), and counts after. Every multi-row statement reads the page as bound JSON.
 */
export async function mirrorStatements(scope: AppScope, provider: TrackerProvider, name: string, issues: readonly ExternalIssue[], now: Date): Promise<MirrorBatch> {
  const { t, db } = scope
  const d = db.dialect
  const at = toTimestamp(now)
  const rows = await Promise.all(
    issues.map(async (issue) => ({
      fp: await mirrorFingerprint(provider, issue.id),
      id: issue.id,
      ...searchedFields(issue),
      severity: issue.severity,
      status: issue.status,
      state: issue.state.slice(0, 255),
      url: issue.url,
      channel: issue.container,
      assignee: issue.assignee?.slice(0, 255) ?? null,
      first_seen: timestamp(issue.createdAt, now),
      last_seen: timestamp(issue.updatedAt, now),
      context: JSON.stringify(issue.context),
      note: `Imported from ${name} (${issue.identifier}).`,
    })),
  )
  const labels = new Map<string, { name: string; key: string; color: string }>()
  const attachments: { fp: string; key: string }[] = []
  rows.forEach((row, index) => {
    for (const label of issues[index]!.labels) {
      const labelName = label.name.trim().slice(0, 80)
      if (!labelName) continue
      const key = nameKey(labelName)
      if (!labels.has(key)) labels.set(key, { name: labelName, key, color: label.color && HEX_COLOR_PATTERN.test(label.color) ? label.color.toLowerCase() : TAG_DEFAULTS.color })
      attachments.push({ fp: row.fp, key })
    }
  })
  const page = JSON.stringify(rows)
  const tagJson = JSON.stringify([...labels.values()])
  const attachJson = JSON.stringify(attachments)
  const records = d.jsonRecords(
    { fp: 'text', id: 'text', identifier: 'text', title: 'text', message: 'text', severity: 'text', status: 'text', state: 'text', url: 'text', channel: 'text', assignee: 'text', first_seen: 'text', last_seen: 'text', context: 'text', note: 'text' },
    'j',
  )
  const fps = `SELECT j.fp FROM ${d.jsonRecords({ fp: 'text' }, 'j')}`
  const keys = `SELECT j.key FROM ${d.jsonRecords({ key: 'text' }, 'j')}`
  const incoming = (columns: readonly string[]) => Object.fromEntries(columns.map((column) => [column, d.incoming(column)]))
  const text = (expression: string) => d.castText(expression)

  const writes: Statement[] = [
    {
      sql: d.upsert(
        t.groups,
        ['fingerprint', 'severity', 'environment', 'title', 'source_frame', 'count', 'first_seen', 'last_seen', 'sample_message', 'sample_context', 'created_at', 'status', 'status_updated_at', 'log_type', 'channel', 'origin', 'kind', 'external_source', 'external_id', 'external_url', 'assignee'],
        `SELECT j.fp, j.severity, ${text('?')}, j.title, j.identifier, 0, j.first_seen, j.last_seen, j.message, j.context, ${text('?')}, j.status, ${text('?')}, ${text('?')}, j.channel, ${text('?')}, 'issue', ${text('?')}, j.id, j.url, j.assignee
         FROM ${records}
         WHERE NOT EXISTS (SELECT 1 FROM ${t.trackerLinks} l WHERE l.provider = ? AND l.external_id = j.id AND l.via = 'push')`,
        ['fingerprint'],
        // Never `status`: the local workflow is the authority (reference §4.5).
        incoming(['severity', 'title', 'source_frame', 'last_seen', 'sample_message', 'sample_context', 'channel', 'external_url', 'assignee']),
      ),
      args: [provider, at, at, provider, provider, provider, page, provider],
    },
    // The mirrors' search signatures (migrations 0021 and 0023), where the row now holds the mirrored text — not
    // for an issue pushed from Loupe, which the upsert above leaves as it is.
    ...(d.searchSignature
      ? [d.updateFrom(
          t.searchSignatures,
          'ss',
          signatureAssignments('j'),
          new Fragment(`(SELECT g.id, ${signatureFieldList('r')}
            FROM ${d.jsonRecords({ fp: 'text', identifier: 'text', title: 'text', message: 'text', ...signatureFieldTypes }, 'r')} JOIN ${t.groups} g ON g.fingerprint = r.fp
            WHERE ${d.isSame('g.title', 'r.title')} AND ${d.isSame('g.sample_message', 'r.message')} AND ${d.isSame('g.source_frame', 'r.identifier')}
              AND g.exception_class IS NULL) j`, [page]),
          'ss.id = j.id',
        )]
      : []),
    {
      sql: `INSERT INTO ${t.history} (group_id, from_status, to_status, note, created_at, actor)
        SELECT g.id, NULL, g.status, j.note, ${text('?')}, ${text('?')} FROM ${records} JOIN ${t.groups} g ON g.fingerprint = j.fp
        WHERE NOT EXISTS (SELECT 1 FROM ${t.history} h WHERE h.group_id = g.id)`,
      args: [at, name, page],
    },
    {
      sql: d.upsert(
        t.trackerLinks,
        ['group_id', 'provider', 'external_id', 'identifier', 'url', 'state', 'via', 'created_at', 'updated_at'],
        `SELECT g.id, ${text('?')}, j.id, j.identifier, j.url, j.state, 'sync', ${text('?')}, ${text('?')} FROM ${records} JOIN ${t.groups} g ON g.fingerprint = j.fp WHERE 1 = 1`,
        ['group_id'],
        incoming(['identifier', 'url', 'state', 'updated_at']),
      ),
      args: [provider, at, at, page],
    },
    {
      // Issues created from Loupe are found by their link: only the tracker's state is refreshed.
      sql: `UPDATE ${t.trackerLinks} SET state = (SELECT j.state FROM ${records} WHERE j.id = ${t.trackerLinks}.external_id), updated_at = ?
        WHERE provider = ? AND via = 'push' AND external_id IN (SELECT j.id FROM ${d.jsonRecords({ id: 'text' }, 'j')})`,
      args: [page, at, provider, page],
    },
  ]
  if (labels.size > 0) {
    writes.push(
      {
        sql: d.insertIgnore(
          t.tags,
          ['name', 'name_key', 'color', 'icon', 'created_at', 'created_by'],
          `SELECT j.name, j.key, j.color, ${text('?')}, ${text('?')}, ${text('?')} FROM ${d.jsonRecords({ name: 'text', key: 'text', color: 'text' }, 'j')}
           WHERE NOT EXISTS (SELECT 1 FROM ${t.tags} x WHERE x.name_key = j.key)`,
          ['name_key'],
        ),
        args: [TAG_DEFAULTS.icon, at, name, tagJson],
      },
      {
        sql: d.insertIgnore(
          t.groupTags,
          ['group_id', 'tag_id', 'source', 'created_at'],
          `SELECT DISTINCT g.id, x.id, 'tracker', ${text('?')} FROM ${d.jsonRecords({ fp: 'text', key: 'text' }, 'j')}
           JOIN ${t.groups} g ON g.fingerprint = j.fp JOIN ${t.tags} x ON x.name_key = j.key WHERE 1 = 1`,
          ['group_id', 'tag_id'],
        ),
        args: [at, attachJson],
      },
    )
  }
  const countGroups: Statement = { sql: `SELECT COUNT(*) AS n FROM ${t.groups} WHERE fingerprint IN (${fps})`, args: [page] }
  const countTags: Statement = { sql: `SELECT COUNT(*) AS n FROM ${t.tags} WHERE name_key IN (${keys})`, args: [tagJson] }
  return { groupsBefore: countGroups, tagsBefore: countTags, writes, groupsAfter: countGroups, tagsAfter: countTags }
}

function timestamp(iso: string, fallback: Date): string {
  const date = new Date(iso)
  return toTimestamp(Number.isNaN(date.getTime()) ? fallback : date)
}

/**
 * A mirror's searched text (its identifier is the source frame), with its search signature (migrations 0021 and 0023:
 * `s0` … `s4`, read where the schema keeps one).
 */
function searchedFields(issue: ExternalIssue) {
  const identifier = issue.identifier.slice(0, 255)
  const title = (issue.title.trim() || issue.identifier).slice(0, TITLE_MAX)
  const message = (issue.description?.trim() || issue.title).slice(0, MESSAGE_MAX)
  const signature = textSignature({ title, message, exceptionClass: null, sourceFrame: identifier })
  return { identifier, title, message, ...signatureFields(signature) }
}
