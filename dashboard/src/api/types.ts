/**
 * Response shapes of the endpoints the dashboard reads: the contract in `shared/api.ts` (the worker returns
 * the same types, so the two cannot drift), plus the request-side unions the dashboard builds itself.
 */
export type {
  ApplicationView as Application,
  AssignableUser,
  Assignment,
  BulkResult,
  CountRow,
  DayCount,
  DeletionPreview,
  DeletionResult,
  ErrorDetail,
  FailedImport,
  FileImportResult,
  GroupDetail,
  GroupsPage,
  ImportJob,
  ImportResponse as ImportResult,
  ImportStatus,
  IngestionSettings,
  IssueDetailTag,
  IssuesPage,
  Occurrence,
  PageMeta,
  ProcessedPruneResult,
  ProcessedStatus as RetentionInfo,
  RawEvent,
  SourceFile,
  SourcesPage,
  StatusChangeResult,
  StatusHistoryRow,
  Summary,
} from '../../../shared/api.ts'
export type { IssueListItem } from '../../../shared/schemas/issue.ts'
export type { Module } from '../../../shared/schemas/module.ts'
export type { IssueTag, Tag } from '../../../shared/schemas/tag.ts'

/** What a scoped log deletion targets: one calendar day, or one source file. */
export type DeletionScope = { readonly date: string } | { readonly source_id: number }

/** `POST ?api=processed-retention`: the prune run. */
export interface RetentionResult {
  readonly status: string
  readonly pruned: import('../../../shared/api.ts').ProcessedPruneResult
}
