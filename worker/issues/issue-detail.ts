import type { SqlValue, Statement } from '../../drivers/driver.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { parseJson } from '../../drivers/dialect/dialect.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { NotFoundError } from '../errors.ts'
import { ISSUE_COLUMNS, ISSUE_COLUMN_TYPES, issueTagsJson, parseIssueTags } from './issue-columns.ts'
import { readRow } from '../../drivers/read-row.ts'
import { SEVERITIES } from '../../shared/constants.ts'
import { ISSUE_NOT_FOUND } from './issue-messages.ts'
import { withoutVendorFrames } from './stack.ts'
import type { IssueDetailSections, IssueDetailTag, IssueSample, Occurrence, StatusHistoryRow } from '../../shared/api.ts'

export interface DetailOptions {
  readonly page: number
  readonly limit: number
  readonly includeContext: boolean
  readonly skipVendor: boolean
}

/** The detail of one issue: the issue itself, and its occurrences, timeline, status history, tags and meta. */
export interface IssueDetail extends IssueDetailSections {
  readonly issue: IssueSample
}

/**
 * `GET ?api=error|group&id=`: everything about one issue in one read batch of two statements (one round
 * trip; PlanetScale: two concurrent requests) — the issue with its timeline, history and tags aggregated as
 * JSON, and one page of occurrences as plain rows (they can be large, so they are not aggregated).
 */
export async function getIssueDetail(scope: AppScope, id: number, options: DetailOptions): Promise<IssueDetail> {
  const { issue, occurrences } = await namedBatch(scope.db, { issue: issueStatement(scope, 'g.id = ?', [id]), occurrences: occurrencesStatement(scope, id, options) }, { mode: 'read' })
  const row = issue.rows[0]
  if (!row) throw new NotFoundError(ISSUE_NOT_FOUND)
  return toIssueDetail(row, occurrences.rows, options)
}

/** The issue row with module fields, occurrence total, and timeline/history/tags as JSON. */
export function issueStatement(scope: AppScope, where: string, args: readonly SqlValue[]): Statement {
  const { t, db } = scope
  const d = db.dialect
  const timeline = d.jsonArray({ day: 'gd.day', count: 'gd.count' }, `FROM ${t.groupDays} gd WHERE gd.group_id = g.id`)
  const history = d.jsonArray(
    { id: 'h.id', group_id: 'h.group_id', from_status: 'h.from_status', to_status: 'h.to_status', note: 'h.note', created_at: 'h.created_at', actor: 'h.actor' },
    `FROM ${t.history} h WHERE h.group_id = g.id`,
  )
  const tags = issueTagsJson(scope, { created_at: 'tg.created_at', created_by: 'tg.created_by', updated_by: 'tg.updated_by' })
  return {
    sql: `SELECT ${ISSUE_COLUMNS.map((c) => `g.${c}`).join(', ')}, g.sample_message, g.sample_stack, g.sample_context,
        m.name AS module_name, m.slug AS module_slug, m.color AS module_color,
        (SELECT COUNT(*) FROM ${t.occurrences} oc WHERE oc.group_id = g.id) AS total_occurrences,
        ${timeline} AS timeline, ${history} AS status_history, ${tags} AS tags
      FROM ${t.groups} g LEFT JOIN ${t.modules} m ON m.id = g.module_id WHERE ${where}`,
    args: [...args],
  }
}

const OCCURRENCE_COLUMNS = [
  'id', 'group_id', 'source_file_id', 'exact_fingerprint', 'occurred_at', 'occurred_day', 'severity',
  'environment', 'byte_start', 'byte_end', 'event_hash',
] as const

/** An occurrence row as the API returns it (`release`, the file's path, log type and channel joined in). */
const OCCURRENCE_COLUMN_TYPES = {
  id: 'number', group_id: 'number', source_file_id: 'number', exact_fingerprint: 'string?', occurred_at: 'string', occurred_day: 'string',
  severity: SEVERITIES, environment: 'string?', byte_start: 'number', byte_end: 'number', event_hash: 'string?', release: 'string?',
  path: 'string', log_type: 'string', channel: 'string?',
} as const

/** One page of an issue's occurrences, newest first, with their file's path, log type and channel. */
function occurrencesStatement(scope: AppScope, id: number, options: DetailOptions): Statement {
  const { t, db } = scope
  const columns = [
    ...OCCURRENCE_COLUMNS.map((c) => `o.${c}`),
    `o.${db.dialect.quote('release')} AS ${db.dialect.quote('release')}`,
    ...(options.includeContext ? ['o.context_preview'] : []),
    'f.path', 'f.log_type', 'f.channel',
  ]
  return {
    sql: `SELECT ${columns.join(', ')} FROM ${t.occurrences} o JOIN ${t.sourceFiles} f ON f.id = o.source_file_id
      WHERE o.group_id = ? ORDER BY o.occurred_at DESC, o.id DESC LIMIT ${options.limit} OFFSET ${(options.page - 1) * options.limit}`,
    args: [id],
  }
}

/** Row(s) → the API shape, with JSON parsed and each list in a defined order. */
export function toIssueDetail(row: Record<string, unknown>, occurrences: Record<string, unknown>[], options: DetailOptions): IssueDetail {
  const samples = readRow(row, { sample_message: 'string?', sample_stack: 'string?', sample_context: 'string?' }, 'issue sample')
  const issue: IssueSample = {
    ...readRow(row, ISSUE_COLUMN_TYPES, 'issue'),
    sample_message: samples.sample_message,
    sample_stack: options.skipVendor ? withoutVendorFrames(samples.sample_stack) : samples.sample_stack,
    ...(options.includeContext ? { sample_context: samples.sample_context } : {}),
  }
  const total = Number(row.total_occurrences)
  return {
    issue,
    occurrences: occurrences.map((occurrence) => ({
      ...readRow(occurrence, OCCURRENCE_COLUMN_TYPES, 'occurrence'),
      ...(options.includeContext ? readRow(occurrence, { context_preview: 'string?' }, 'occurrence context') : {}),
    })),
    timeline: parseJson<{ day: string; count: number }[]>(row.timeline, [])
      .map((point) => ({ day: point.day, count: Number(point.count) }))
      .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0)),
    status_history: parseJson<StatusHistoryRow[]>(row.status_history, []).sort(newestFirst),
    tags: parseIssueTags<IssueDetailTag>(row.tags),
    meta: {
      total_occurrences: total,
      page: options.page,
      limit: options.limit,
      pages: Math.ceil(total / options.limit),
      skip_vendor: options.skipVendor,
      include_context: options.includeContext,
    },
  }
}

function newestFirst(a: StatusHistoryRow, b: StatusHistoryRow): number {
  const left = String(a.created_at)
  const right = String(b.created_at)
  return left < right ? 1 : left > right ? -1 : Number(b.id) - Number(a.id)
}
