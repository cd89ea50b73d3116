import { define, type, type Infer } from 'superstruct'
import { ISSUE_STATUSES, MANUAL_ISSUE_KINDS, SEVERITIES, type IssueStatus, type Severity } from '../constants.ts'
import type { IssueTag } from './tag.ts'
import { oneOf, oneOfOr, optionalOneOf, optionalText, positiveId, toPositiveInteger } from './fields.ts'

/** A list row's triage markers (issue 17 item 3), in this order when several apply. */
export const ISSUE_BADGES = ['new', 'regressed', 'escalating'] as const
export type IssueBadge = (typeof ISSUE_BADGES)[number]

/** An issue as the list endpoints return it (reference §3.1 "Item fields"). */
export interface IssueListItem {
  readonly id: number
  readonly fingerprint: string
  readonly severity: Severity
  readonly environment: string | null
  readonly title: string
  readonly exception_class: string | null
  readonly source_frame: string | null
  readonly count: number
  readonly first_seen: string
  readonly last_seen: string
  readonly created_at: string
  readonly status: IssueStatus
  readonly status_updated_at: string | null
  readonly log_type: string
  readonly channel: string | null
  readonly origin: string
  readonly kind: string
  readonly module_id: number | null
  readonly external_source: string | null
  readonly external_id: string | null
  readonly external_url: string | null
  readonly assignee: string | null
  readonly assigned_to_id: string | null
  readonly assigned_to_label: string | null
  readonly module_name: string | null
  readonly module_slug: string | null
  readonly module_color: string | null
  /** 1 when the sample has a stack trace, else 0 (reference shape). */
  readonly has_stack: 0 | 1
  readonly tags: readonly IssueTag[]
  /** Occurrences per UTC day over the last 14 days, oldest first, ending today (from the daily rollup). */
  readonly trend: readonly number[]
  /** Triage markers, each defined in docs/api.md (worker/issues/issue-badges.ts). */
  readonly badges: readonly IssueBadge[]
  /** With `include_stack`. */
  readonly sample_stack?: string | null
  /** With `include_context`. */
  readonly sample_context?: string | null
  readonly sample_message?: string | null
}

export const ISSUE_MESSAGES = {
  titleRequired: 'Issue title is required.',
  titleLength: 'Issue title cannot exceed 500 characters.',
  description: 'Issue description cannot exceed 120,000 characters.',
  kind: 'Unsupported manual issue kind.',
  severity: 'Unsupported issue severity.',
  status: 'Unsupported issue status.',
  sourceFrame: 'Related source cannot exceed 1,000 characters.',
  environment: 'Environment must contain 1–100 characters.',
  note: 'Creation note cannot exceed 10,000 characters.',
  tagIds: 'tag_ids must be an array.',
  moduleId: 'module_id must be a positive integer or null.',
  statusNote: 'Status note cannot exceed 10,000 characters.',
  issueId: 'A valid issue id is required.',
} as const

const title = define<string>('title', (value) => {
  if (typeof value !== 'string' || value.trim() === '') return ISSUE_MESSAGES.titleRequired
  return value.trim().length <= 500 ? true : ISSUE_MESSAGES.titleLength
})
/** Manual issues default to an open INFO issue (reference §3.1); severities are accepted in any case. */
const kind = oneOfOr(MANUAL_ISSUE_KINDS, 'issue', ISSUE_MESSAGES.kind)
const severity = oneOfOr(SEVERITIES, 'INFO', ISSUE_MESSAGES.severity, (text) => text.trim().toUpperCase())
const status = oneOfOr(ISSUE_STATUSES, 'open', ISSUE_MESSAGES.status)
const environment = define<string | undefined>('environment', (value) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim().length >= 1 && value.trim().length <= 100)
    ? true
    : ISSUE_MESSAGES.environment,
)
const tagIds = define<unknown[] | undefined>('tag_ids', (value) =>
  value === undefined || value === null || Array.isArray(value) ? true : ISSUE_MESSAGES.tagIds,
)
const moduleId = define<number | string | null | undefined>('module_id', (value) =>
  value === undefined || value === null || value === '' || toPositiveInteger(value) !== null ? true : ISSUE_MESSAGES.moduleId,
)

/** Body of `POST ?api=issues` — a manual issue (reference §3.1 table of fields and messages). */
export const ManualIssueInputSchema = type({
  title,
  description: optionalText(120_000, ISSUE_MESSAGES.description, 'description must be a string.'),
  kind,
  severity,
  status,
  source_frame: optionalText(1000, ISSUE_MESSAGES.sourceFrame, 'source_frame must be a string.'),
  environment,
  note: optionalText(10_000, ISSUE_MESSAGES.note, 'note must be a string.'),
  tag_ids: tagIds,
  module_id: moduleId,
})
export type ManualIssueInput = Infer<typeof ManualIssueInputSchema>

const issueId = positiveId(ISSUE_MESSAGES.issueId)
const requiredStatus = oneOf(ISSUE_STATUSES, ISSUE_MESSAGES.status)
const comment = define<boolean | undefined>('comment', (value) =>
  value === undefined || value === null || typeof value === 'boolean' ? true : 'comment must be true or false.',
)

/** Body of `POST ?api=issue-status`: `{id, status, note?, comment?}` (reference §3.1). */
export const IssueStatusInputSchema = type({
  id: issueId,
  status: requiredStatus,
  note: optionalText(10_000, ISSUE_MESSAGES.statusNote, 'note must be a string.'),
  comment,
})
export type IssueStatusInput = Infer<typeof IssueStatusInputSchema>

/** Body of `POST ?api=assign-issue`: `{id, assigned_to_id?, assigned_to_label?}`. */
export const AssignIssueInputSchema = type({
  id: issueId,
  assigned_to_id: define<string | number | null | undefined>('assigned_to_id', (value) =>
    value === undefined || value === null || typeof value === 'string' || typeof value === 'number' ? true : 'assigned_to_id must be a string.',
  ),
  assigned_to_label: optionalText(255, 'assigned_to_label cannot exceed 255 characters.', 'assigned_to_label must be a string.'),
})
export type AssignIssueInput = Infer<typeof AssignIssueInputSchema>

export const BULK_MESSAGES = {
  idsArray: 'ids must be an array.',
  idsCount: 'Select between 1 and 200 issue ids.',
  action: 'action must be status, add_tag, or remove_tag.',
  tagRequired: 'tag_id is required.',
  someMissing: 'One or more issues do not exist in this application.',
} as const

/** Body of `POST ?api=bulk-issues` (reference §3.1). Per-action rules are checked by the domain. */
export const BulkIssuesInputSchema = type({
  ids: define<unknown[]>('ids', (value) => (Array.isArray(value) ? true : BULK_MESSAGES.idsArray)),
  action: define<'status' | 'add_tag' | 'remove_tag'>('action', (value) =>
    value === 'status' || value === 'add_tag' || value === 'remove_tag' ? true : BULK_MESSAGES.action,
  ),
  /** Required by the `status` action (checked by the domain). */
  status: optionalOneOf(ISSUE_STATUSES, ISSUE_MESSAGES.status),
  note: optionalText(10_000, ISSUE_MESSAGES.statusNote, 'note must be a string.'),
  /** Checked by the domain (required only for the tag actions). */
  tag_id: define<unknown>('tag_id', () => true),
})
export type BulkIssuesInput = Infer<typeof BulkIssuesInputSchema>

/** Most issues one `merge-issues` call folds into its target (the bulk bar's largest page, as `bulk-issues`). */
export const MAX_MERGE_IDS = 200

export const MERGE_MESSAGES = {
  target: 'target must be a positive integer issue id.',
  idsArray: 'ids must be an array.',
  idsInteger: 'ids must contain positive integer issue ids.',
  idsCount: `Select between 1 and ${MAX_MERGE_IDS} issues to merge into the target.`,
  targetInIds: 'The target issue cannot be merged into itself.',
} as const

/** Body of `POST ?api=merge-issues`: `{target, ids}` (issue 17 item 8). The ids' rules are checked by the domain. */
export const MergeIssuesInputSchema = type({
  target: positiveId(MERGE_MESSAGES.target),
  ids: define<unknown[]>('ids', (value) => (Array.isArray(value) ? true : MERGE_MESSAGES.idsArray)),
})
export type MergeIssuesInput = Infer<typeof MergeIssuesInputSchema>
