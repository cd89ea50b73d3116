import { parseJson } from '../../drivers/dialect/dialect.ts'
import { readRow, type ColumnType } from '../../drivers/read-row.ts'
import { ISSUE_STATUSES, SEVERITIES } from '../../shared/constants.ts'
import type { IssueListItem } from '../../shared/schemas/issue.ts'
import type { IssueTag } from '../../shared/schemas/tag.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { issueBadges } from './issue-badges.ts'
import { toTrend, type TrendWindow } from './issue-trend.ts'
import { withoutVendorFrames } from './stack.ts'

/** The issue columns every shape exposes (reference §3.1 "Item fields"), in API order, with how each is read. */
export const ISSUE_COLUMN_TYPES = {
  id: 'number', fingerprint: 'string', severity: SEVERITIES, environment: 'string?', title: 'string', exception_class: 'string?', source_frame: 'string?',
  count: 'number', first_seen: 'string', last_seen: 'string', created_at: 'string', status: ISSUE_STATUSES, status_updated_at: 'string?', log_type: 'string',
  channel: 'string?', origin: 'string', kind: 'string', module_id: 'number?', external_source: 'string?', external_id: 'string?', external_url: 'string?',
  assignee: 'string?', assigned_to_id: 'string?', assigned_to_label: 'string?',
  module_name: 'string?', module_slug: 'string?', module_color: 'string?',
} as const satisfies Readonly<Record<string, ColumnType>>

export const ISSUE_COLUMNS = [
  'id', 'fingerprint', 'severity', 'environment', 'title', 'exception_class', 'source_frame', 'count',
  'first_seen', 'last_seen', 'created_at', 'status', 'status_updated_at', 'log_type', 'channel', 'origin',
  'kind', 'module_id', 'external_source', 'external_id', 'external_url', 'assignee', 'assigned_to_id',
  'assigned_to_label',
] as const satisfies readonly (keyof typeof ISSUE_COLUMN_TYPES)[]

export interface SampleOptions {
  /** Include `sample_stack`. */
  readonly stack: boolean
  /** Include `sample_context` and `sample_message`. */
  readonly context: boolean
}

/**
 * The SELECT list of an issue row over `g` (issues) left-joined to `m` (modules): its columns, module
 * fields, `has_stack`, the requested sample fields, and its tags as a JSON array — so a page of issues with
 * their tags is one statement.
 */
export function issueSelectList(scope: AppScope, samples: SampleOptions): string {
  return [
    ...ISSUE_COLUMNS.map((column) => `g.${column}`),
    'm.name AS module_name',
    'm.slug AS module_slug',
    'm.color AS module_color',
    `CASE WHEN g.sample_stack IS NOT NULL AND g.sample_stack <> '' THEN 1 ELSE 0 END AS has_stack`,
    ...(samples.stack ? ['g.sample_stack'] : []),
    ...(samples.context ? ['g.sample_context', 'g.sample_message'] : []),
    `${issueTagsJson(scope)} AS tags`,
  ].join(', ')
}

/** The tags of issue `g` with their source, as a JSON array subquery. */
export function issueTagsJson(scope: AppScope, extra: Readonly<Record<string, string>> = {}): string {
  const { t, db } = scope
  return db.dialect.jsonArray(
    { id: 'tg.id', name: 'tg.name', color: 'tg.color', icon: 'tg.icon', ...extra, source: 'gt.source' },
    `FROM ${t.groupTags} gt JOIN ${t.tags} tg ON tg.id = gt.tag_id WHERE gt.group_id = g.id`,
  )
}

/** Parses a tags JSON column and orders the tags by name, case-insensitively (engines disagree on order). */
export function parseIssueTags<T extends IssueTag>(value: unknown): T[] {
  return parseJson<T[]>(value, []).sort(byName)
}

/** What a list row needs besides its columns: the samples asked for, and the trend window and clock of its badges. */
export interface ListItemOptions extends SampleOptions {
  readonly skipVendor: boolean
  readonly window: TrendWindow
  readonly now: Date
}

/** A list row from a page row selected with `issueSelectList` plus a `trend` column (issue-trend.ts). */
export function toIssueListItem(row: Record<string, unknown>, options: ListItemOptions): IssueListItem {
  const columns = readRow(row, ISSUE_COLUMN_TYPES, 'issue')
  const samples = readRow(row, { sample_stack: 'string?', sample_context: 'string?', sample_message: 'string?' }, 'issue sample')
  const trend = toTrend(row.trend, options.window)
  return {
    ...columns,
    has_stack: Number(row.has_stack) === 1 ? 1 : 0,
    tags: parseIssueTags(row.tags),
    trend,
    badges: issueBadges(columns, trend, options.now),
    ...(options.stack ? { sample_stack: options.skipVendor ? withoutVendorFrames(samples.sample_stack) : samples.sample_stack } : {}),
    ...(options.context ? { sample_context: samples.sample_context, sample_message: samples.sample_message } : {}),
  }
}

export function byName(a: { name: string; id?: number }, b: { name: string; id?: number }): number {
  const left = a.name.toLowerCase()
  const right = b.name.toLowerCase()
  return left < right ? -1 : left > right ? 1 : (a.id ?? 0) - (b.id ?? 0)
}
