/**
 * The API's response shapes — the contract between the worker and the dashboard, declared once. The worker's
 * domain functions return these types and the dashboard's client reads them, so a change to a shape that the
 * other side does not follow fails the type check. Request bodies are the superstruct schemas in
 * `shared/schemas/`; endpoint documentation is docs/api.md and docs/api-ingestion.md.
 */
import type { IssueStatus, Severity } from './constants.ts'
import type { IssueListItem } from './schemas/issue.ts'
import type { Module } from './schemas/module.ts'
import type { IssueTag } from './schemas/tag.ts'

export interface PageMeta {
  readonly total: number
  readonly page: number
  readonly limit: number
  readonly pages: number
}

export interface DayCount {
  readonly day: string
  readonly count: number
}

// ── Applications ──

/** An application as `applications` lists it: where its data lives, without any connection detail. */
export interface ApplicationView {
  readonly id: string
  readonly name: string
  /** The driver of the database holding its tables. */
  readonly database: string
  /** Prefix of its table names: `app<N>_` in the default database, empty in its own database. */
  readonly table_prefix: string
  /** Storage prefixes in the `LOGS` bucket (design.md §3). */
  readonly logs: string
  readonly processed: string
  readonly sources: string
  readonly created_at: string
}

/** Someone an issue can be assigned to (config `assignable_users`). */
export interface AssignableUser {
  readonly id: string
  readonly label: string
}

// ── Issues ──

/** `GET ?api=errors|issues`. */
export interface IssuesPage {
  readonly data: IssueListItem[]
  readonly meta: PageMeta & {
    readonly sort: 'newest' | 'oldest' | 'occurrences' | 'priority'
    readonly include_stack: boolean
    readonly include_context: boolean
    readonly skip_vendor: boolean
  }
}

/** `GET ?api=groups`. */
export interface GroupsPage {
  readonly items: IssueListItem[]
  readonly meta: PageMeta
}

/** One occurrence of an issue, with its file (detail endpoints). */
export interface Occurrence {
  readonly id: number
  readonly group_id: number
  readonly source_file_id: number
  readonly exact_fingerprint: string | null
  readonly occurred_at: string
  readonly occurred_day: string
  readonly severity: Severity
  readonly environment: string | null
  readonly byte_start: number
  readonly byte_end: number
  readonly event_hash: string | null
  readonly release: string | null
  /** Absent when `include_context=false`. */
  readonly context_preview?: string | null
  readonly path: string
  readonly log_type: string
  readonly channel: string | null
}

export interface StatusHistoryRow {
  readonly id: number
  readonly group_id: number
  readonly from_status: IssueStatus | null
  readonly to_status: IssueStatus
  readonly note: string | null
  readonly created_at: string
  /** Null for the automatic `fixed` → `reoccurred` transition. */
  readonly actor: string | null
}

/** A tag on an issue in the detail view: the tag's fields and how it got there. */
export interface IssueDetailTag extends IssueTag {
  readonly created_at: string
  readonly created_by: string | null
  readonly updated_by: string | null
}

/** The issue itself in the detail view: the list fields (without tags) plus its sample. */
export type IssueSample = Omit<IssueListItem, 'tags' | 'trend' | 'badges' | 'has_stack' | 'sample_stack' | 'sample_context' | 'sample_message'> & {
  readonly sample_message: string | null
  readonly sample_stack: string | null
  /** Absent when `include_context=false`. */
  readonly sample_context?: string | null
}

/** Everything but the issue in `GET ?api=error|group` (`data` or `group` holds the issue). */
export interface IssueDetailSections {
  readonly occurrences: Occurrence[]
  readonly timeline: DayCount[]
  readonly status_history: StatusHistoryRow[]
  readonly tags: IssueDetailTag[]
  readonly meta: Omit<PageMeta, 'total'> & {
    readonly total_occurrences: number
    readonly skip_vendor: boolean
    readonly include_context: boolean
  }
}

/** `GET ?api=error` (and `POST ?api=issues`, 201). */
export type ErrorDetail = IssueDetailSections & { readonly data: IssueSample }
/** `GET ?api=group`. */
export type GroupDetail = IssueDetailSections & { readonly group: IssueSample }

/** `POST ?api=issue-status`. */
export interface StatusChangeResult {
  readonly id: number
  readonly from_status: IssueStatus
  readonly status: IssueStatus
  readonly note: string | null
  /** What each enabled plugin's `statusChanged` hook returned, under the plugin's id (reference §4.1). */
  readonly [pluginId: string]: unknown
}

/** `POST ?api=bulk-issues`. */
export type BulkResult =
  | { readonly action: 'status'; readonly status: IssueStatus; readonly note: string | null; readonly updated: number; readonly ids: number[] }
  | { readonly action: 'add_tag' | 'remove_tag'; readonly tag_id: number; readonly updated: number; readonly ids: number[] }

/** `POST ?api=merge-issues`: the target after the merge and the ids merged into it (and deleted). */
export interface MergeResult {
  readonly target: number
  readonly merged: number[]
  readonly count: number
  readonly first_seen: string
  readonly last_seen: string
}

/** `POST ?api=assign-issue`. */
export interface Assignment {
  readonly id: number
  readonly assigned_to_id: string | null
  readonly assigned_to_label: string | null
}

// ── Files, summary, import ──

/** A source file as `summary.files` and `sources` list it (reference §3.1). */
export interface SourceFile {
  readonly id: number
  readonly path: string
  readonly size: number
  readonly imported_at: string | null
  readonly log_type: string
  readonly channel: string | null
  readonly occurrence_count: number
  readonly module_id: number | null
  readonly module_name: string | null
  readonly module_slug: string | null
  readonly module_color: string | null
}

/** `GET ?api=sources`. */
export interface SourcesPage {
  readonly data: SourceFile[]
  readonly meta: PageMeta
}

/** `GET ?api=source&occurrence=`: the raw bytes of one event. */
export interface RawEvent {
  readonly byte_start: number
  readonly byte_end: number
  readonly path: string
  readonly log_type: string
  readonly channel: string | null
  readonly content: string
}

export interface CountRow {
  readonly groups_count: number
  readonly occurrences: number
}

/** `GET ?api=summary` (reference §3.1). */
export interface Summary {
  /** `last_event`: the newest `last_seen` of an ingested issue — the newest event (manual issues have none). */
  readonly total: CountRow & { readonly last_seen: string | null; readonly last_event: string | null }
  readonly severity: (CountRow & { readonly severity: string })[]
  readonly status: (CountRow & { readonly status: string })[]
  readonly types: (CountRow & { readonly log_type: string })[]
  readonly trend: DayCount[]
  readonly daily_severity: { readonly day: string; readonly severity: string; readonly count: number }[]
  readonly files: SourceFile[]
  readonly modules: Module[]
  /** Config `dashboard.*` the overview needs: warn when no event arrived for `stale_after_hours` (issue 17). */
  readonly dashboard: { readonly stale_after_hours: number }
}

/** `GET ?api=ingestion-settings` (reference §3.5). */
export interface IngestionSettings {
  readonly available_severities: readonly Severity[]
  readonly ingested_severities: readonly Severity[]
  readonly defaults: readonly Severity[]
}

/**
 * What an import did with one file (ours, not the reference's): nothing read is dropped without a count.
 * `read` = `stored` + the `skipped` counts + `already_stored`; `unparseable` lines are outside every entry.
 */
export interface FileImportResult {
  /** The path the file arrived under (below `incoming/<app>/`), else its archive key. */
  path: string
  /** The format it was read as: its `log_type` (`laravel`, `horizon`, `nginx_access`, `nginx_error`, …). */
  format: string
  /** Entries the parser read from the bytes this import read. */
  read: number
  /** Entries stored as new occurrences. */
  stored: number
  /** Entries not stored because their severity is not on the allow-list, per severity (absent: none). */
  skipped: Partial<Record<Severity, number>>
  /** Entries whose bytes were already stored (a read resumed after an interruption). */
  already_stored: number
  /** Non-blank lines that belong to no entry (before a format's first header, or unreadable). */
  unparseable: number
}

/**
 * The reference's import result (§2.9): files handled, new occurrences stored, issues that got new
 * occurrences, unchanged files skipped, incoming files archived, the allow-list used, new occurrences per log
 * type, and `"file: message"` per file that failed; plus (ours) `file_results`, one per file read.
 */
export interface ImportResult {
  files: number
  events: number
  groups: number
  skipped: number
  processed: number
  ingested_severities: Severity[]
  by_type: Record<string, number>
  errors: string[]
  file_results: FileImportResult[]
}

/** A retention run over the processed archive. */
export interface ProcessedPruneResult {
  readonly enabled: boolean
  readonly deleted: number
  readonly freed_bytes: number
  readonly remaining: number
  readonly scanned: number
}

export const IMPORT_JOB_KINDS = ['import-incoming', 'reindex', 'resume'] as const
export type ImportJobKind = (typeof IMPORT_JOB_KINDS)[number]
export const IMPORT_JOB_STATUSES = ['queued', 'running', 'success', 'failed'] as const
export type ImportJobStatus = (typeof IMPORT_JOB_STATUSES)[number]

/** A background import and its progress, as `GET ?api=import-incoming` reports it. */
export interface ImportJob {
  readonly id: number
  readonly kind: ImportJobKind
  readonly status: ImportJobStatus
  readonly files_total: number
  readonly files_done: number
  readonly bytes_total: number
  readonly bytes_done: number
  readonly events: number
  readonly current_file: string | null
  readonly message: string | null
  /** The import result accumulated so far (final once the job succeeded). */
  readonly result: (ImportResult & { retention?: ProcessedPruneResult | null; already_ingested?: AlreadyIngested[] }) | null
  readonly created_at: string
  readonly started_at: string | null
  readonly updated_at: string
  readonly finished_at: string | null
}

/** A file whose bytes had already been imported under another name (reference §6 `already_ingested`). */
export interface AlreadyIngested {
  /** The file that arrived (its path below `incoming/<app>/`). */
  readonly path: string
  /** The file already holding the same content. */
  readonly same_as: string
}

/** Work still to do: files with bytes left to read (uploads not yet archived included), and those bytes. */
export interface PendingWork {
  readonly files: number
  readonly bytes: number
}

/** A file set aside after its import failed `ingestion.max_file_attempts` times in a row. */
export interface FailedImport {
  /** Pass it as `{"retry": id}` to `POST ?api=import-incoming` to try again. */
  readonly id: number
  readonly path: string
  /** The source file, once it was archived (null when archiving it failed). */
  readonly source_id: number | null
  readonly error: string
  readonly attempts: number
  readonly failed_at: string
}

/** `POST ?api=import-incoming` and `POST ?api=reindex`: the result, the retention run and the background job. */
export type ImportResponse = ImportResult & {
  /** The archive's retention run (reference §6); null while a background job still has work to do. */
  readonly retention: ProcessedPruneResult | null
  readonly job: ImportJob | null
  /** Files this call recognised as already imported under another name (counted in `skipped`). */
  readonly already_ingested: AlreadyIngested[]
}

/**
 * `202` of an upload that arrived while another import held the lock: the file is stored and `job` (or the
 * import holding the lock) imports it; nothing was read by this call.
 */
export type ImportAccepted = ImportResponse & {
  readonly accepted: true
  readonly pending: PendingWork
}

/** `GET ?api=import-incoming`. */
export interface ImportStatus {
  readonly data: ImportJob[]
  readonly pending: PendingWork
  /** Files set aside after repeated failures, newest first. */
  readonly failed: FailedImport[]
}

// ── Maintenance ──

export interface DeletionSource {
  readonly id: number
  readonly path: string
  readonly log_type: string
  readonly channel: string | null
  readonly size: number
  readonly imported_at: string | null
}

/** `GET ?api=log-deletion-preview`. */
export interface DeletionPreview {
  readonly scope: { readonly type: 'date'; readonly date: string } | { readonly type: 'source'; readonly source_id: number; readonly source: DeletionSource }
  readonly occurrences: number
  readonly issue_groups: number
  readonly sources: number
  readonly raw_files_preserved: true
  readonly checkpoints_preserved: true
}

/** `POST ?api=delete-logs`. */
export interface DeletionResult {
  readonly deleted: { readonly occurrences: number; readonly empty_issue_groups: number }
  readonly preview: DeletionPreview
  readonly raw_files_preserved: true
  readonly checkpoints_preserved: true
}

export interface ProcessedPolicy {
  readonly processed_max_age_days: number
  readonly processed_max_files: number
}

/** `GET ?api=processed-retention`. */
export interface ProcessedStatus {
  readonly policy: ProcessedPolicy
  readonly archived_files: number
  readonly archived_bytes: number
}
