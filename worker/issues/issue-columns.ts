import { parseJson } from '../../drivers/dialect/dialect.ts'
import type { IssueListItem } from '../../shared/schemas/issue.ts'
import type { IssueTag } from '../../shared/schemas/tag.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { withoutVendorFrames } from './stack.ts'

/** The issue columns every shape exposes (reference §3.1 "Item fields"), in API order. */
export const ISSUE_COLUMNS = [
  'id', 'fingerprint', 'severity', 'environment', 'title', 'exception_class', 'source_frame', 'count',
  'first_seen', 'last_seen', 'created_at', 'status', 'status_updated_at', 'log_type', 'channel', 'origin',
  'kind', 'module_id', 'external_source', 'external_id', 'external_url', 'assignee', 'assigned_to_id',
  'assigned_to_label',
] as const

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

export function toIssueListItem(row: Record<string, unknown>, options: SampleOptions & { skipVendor: boolean }): IssueListItem {
  const item: Record<string, unknown> = {}
  for (const column of ISSUE_COLUMNS) item[column] = row[column] ?? null
  item.module_name = row.module_name ?? null
  item.module_slug = row.module_slug ?? null
  item.module_color = row.module_color ?? null
  item.has_stack = Number(row.has_stack) === 1 ? 1 : 0
  item.tags = parseIssueTags(row.tags)
  if (options.stack) item.sample_stack = options.skipVendor ? withoutVendorFrames(row.sample_stack as string | null) : (row.sample_stack ?? null)
  if (options.context) {
    item.sample_context = row.sample_context ?? null
    item.sample_message = row.sample_message ?? null
  }
  return item as unknown as IssueListItem
}

export function byName(a: { name: string; id?: number }, b: { name: string; id?: number }): number {
  const left = a.name.toLowerCase()
  const right = b.name.toLowerCase()
  return left < right ? -1 : left > right ? 1 : (a.id ?? 0) - (b.id ?? 0)
}
