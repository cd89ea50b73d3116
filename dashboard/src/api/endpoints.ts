/**
 * One typed function per API call the dashboard makes (docs/api.md, docs/api-ingestion.md). Components
 * call these, never `fetch`, so every request goes through the same token, app and error handling.
 */
import type { IssueStatus, Severity } from '../../../shared/constants.ts'
import type { ManualIssueInput } from '../../../shared/schemas/issue.ts'
import type { ModuleInput } from '../../../shared/schemas/module.ts'
import type { TagInput } from '../../../shared/schemas/tag.ts'
import type { PluginView } from '../../../shared/schemas/plugin.ts'
import type { IngestSettingsView } from '../../../shared/schemas/ingest.ts'
import type { AlertChannel, AlertChannelInput, AlertEvent, AlertPreview, AlertRule, AlertRuleInput, AlertTestResult } from '../../../shared/schemas/alerts.ts'
import type { TrackerIssueView, TrackerSettingsInput, TrackerSettingsView, TrackerSyncResult, TrackerTestResult } from '../../../shared/schemas/tracker.ts'
import type { AccessAnalytics } from '../../../shared/schemas/access-analytics.ts'
import type { Deploy, DeployMarker, DeployRow, IssueReleases, ReleaseSettings, ReleaseSummary, SourceMapRow } from '../../../shared/schemas/releases.ts'
import type { Connector, ConnectorPlan, ConnectorRun, ConnectorSyncAccepted } from '../../../shared/schemas/connectors.ts'
import type { MergeResult } from '../../../shared/api.ts'
import type { EventContext, IssueValues } from '../../../shared/issue-page.ts'
import { api } from './client.ts'
import type {
  Application, AssignableUser, DeletionPreview, DeletionResult, DeletionScope, GroupDetail, GroupsPage,
  ImportResult, ImportStatus, IngestionSettings, Module, RawEvent, RetentionInfo, RetentionResult, SourcesPage, Summary, Tag,
} from './types.ts'

type Signal = AbortSignal | undefined
export type IssueQuery = Readonly<Record<string, string | number | undefined>>

export const getSummary = (signal?: Signal) => api<Summary>('summary', { signal })
export const listGroups = (query: IssueQuery, signal?: Signal) => api<GroupsPage>('groups', { query, signal })
export const getGroup = (id: number, signal?: Signal) => api<GroupDetail>('group', { query: { id, limit: 100 }, signal })
export const getRawEvent = (occurrence: number, signal?: Signal) => api<RawEvent>('source', { query: { occurrence }, signal })
/** The issue page (issue 17): one more page of occurrences, the lines around one, the value breakdown. */
export const getOccurrencePage = (id: number, page: number, limit: number, signal?: Signal) => api<GroupDetail>('group', { query: { id, page, limit }, signal })
export const getEventContext = (occurrence: number, lines: number, signal?: Signal) => api<EventContext>('event-context', { query: { id: occurrence, lines }, signal })
export const getIssueValues = (id: number, signal?: Signal) => api<IssueValues>('issue-values', { query: { id }, signal })

export const setIssueStatus = (id: number, status: IssueStatus, note: string) =>
  api<{ id: number; from_status: IssueStatus; status: IssueStatus; note: string | null }>('issue-status', { body: { id, status, note } })

export const setIssueTag = (groupId: number, tagId: number, action: 'add' | 'remove') =>
  api<{ groupId: number; tagId: number; action: string }>('issue-tags', { body: { group_id: groupId, tag_id: tagId, action } })

export type BulkAction = { action: 'status'; status: IssueStatus; note: string } | { action: 'add_tag' | 'remove_tag'; tag_id: number }
export const bulkIssues = (ids: readonly number[], action: BulkAction) =>
  api<{ updated: number; ids: number[] }>('bulk-issues', { body: { ids, ...action } })

export const mergeIssues = (target: number, ids: readonly number[]) => api<MergeResult>('merge-issues', { body: { target, ids } })

export const listAssignableUsers = (signal?: Signal) => api<{ data: AssignableUser[] }>('assignable-users', { signal })
export const assignIssue = (id: number, assignedToId: string | null) =>
  api<{ id: number; assigned_to_id: string | null; assigned_to_label: string | null }>('assign-issue', { body: { id, assigned_to_id: assignedToId } })

export const createIssue = (input: Partial<ManualIssueInput>) => api<{ data: { id: number } }>('issues', { body: input })

export const listTags = (signal?: Signal) => api<{ data: Tag[] }>('tags', { signal })
export const createTag = (input: TagInput) => api<Tag>('tags', { method: 'POST', body: input })
export const updateTag = (id: number, input: TagInput) => api<Tag>('tags', { method: 'PUT', body: { id, ...input } })
export const deleteTag = (id: number) => api<{ id: number; deleted: boolean }>('tags', { method: 'DELETE', body: { id } })

export const listModules = (signal?: Signal) => api<{ data: Module[] }>('modules', { signal })
export const createModule = (input: ModuleInput) => api<Module>('modules', { method: 'POST', body: input })

export const listApplications = (signal?: Signal) => api<{ data: Application[] }>('applications', { app: null, signal })
export const createApplication = (input: { name: string; id?: string }) =>
  api<Application>('applications', { method: 'POST', body: input, app: null })

export const listSources = (page: number, signal?: Signal, limit = 12) => api<SourcesPage>('sources', { query: { page, limit }, signal })

export const getIngestionSettings = (signal?: Signal) => api<IngestionSettings>('ingestion-settings', { signal })
export const listPlugins = (signal?: Signal) => api<{ data: PluginView[] }>('plugins', { signal })
export const setPluginEnabled = (id: string, enabled: boolean) => api<{ data: PluginView[] }>('plugins', { body: { id, enabled } })
export const getIngestSettings = (signal?: Signal) => api<IngestSettingsView>('ingest-settings', { signal })
export const regenerateIngestKey = () => api<{ key: string }>('ingest-settings', { body: { action: 'regenerate' } })
export const saveIngestionSettings = (severities: Severity[]) =>
  api<IngestionSettings>('ingestion-settings', { method: 'POST', body: { severities } })

/** Uploads one log file as the raw request body; `file` is `<module>/<name>` (the module may be empty). */
export const uploadLog = (file: string, content: Blob) =>
  api<ImportResult>('import-incoming', { method: 'POST', query: { file }, raw: content })
export const getImportStatus = (signal?: Signal) => api<ImportStatus>('import-incoming', { signal })
/** Gives a file set aside after repeated failures fresh attempts, and imports. */
export const retryImport = (id: number) => api<ImportResult>('import-incoming', { method: 'POST', body: { retry: id } })
/** Re-reads every archived file from the start with the current severities. */
export const reindex = () => api<ImportResult>('reindex', { method: 'POST', body: {} })
/** "Process logs": imports everything waiting in the application's incoming area. */
export const processLogs = () => api<ImportResult>('import-incoming', { method: 'POST', body: {} })

export const previewDeletion = (scope: DeletionScope, signal?: Signal) =>
  api<DeletionPreview>('log-deletion-preview', { query: scope, signal })
export const deleteLogs = (scope: DeletionScope, confirmation: string) =>
  api<DeletionResult>('delete-logs', { body: { ...scope, confirmation } })

export const getRetention = (signal?: Signal) => api<RetentionInfo>('processed-retention', { signal })
/** "Prune archive now": applies the configured retention rules to the processed archive. */
export const pruneArchive = () => api<RetentionResult>('processed-retention', { method: 'POST', body: {} })

export const listAlertChannels = (signal?: Signal) => api<{ data: AlertChannel[] }>('alert-channels', { signal })
export const createAlertChannel = (input: AlertChannelInput) => api<AlertChannel>('alert-channels', { method: 'POST', body: input })
export const updateAlertChannel = (id: number, input: AlertChannelInput) => api<AlertChannel>('alert-channels', { method: 'PATCH', body: { id, ...input } })
export const deleteAlertChannel = (id: number) => api<{ id: number; deleted: boolean }>('alert-channels', { method: 'DELETE', body: { id } })
export const testAlertChannel = (id: number) => api<AlertTestResult>('alert-test', { body: { id } })
export const listAlertRules = (signal?: Signal) => api<{ data: AlertRule[] }>('alert-rules', { signal })
export const createAlertRule = (input: AlertRuleInput) => api<AlertRule>('alert-rules', { method: 'POST', body: input })
export const updateAlertRule = (id: number, input: AlertRuleInput) => api<AlertRule>('alert-rules', { method: 'PATCH', body: { id, ...input } })
export const previewAlertRule = (input: AlertRuleInput) => api<AlertPreview>('alert-preview', { body: input })
export const deleteAlertRule = (id: number) => api<{ id: number; deleted: boolean }>('alert-rules', { method: 'DELETE', body: { id } })
export const listAlertEvents = (signal?: Signal) => api<{ data: AlertEvent[] }>('alert-events', { query: { limit: 50 }, signal })

export const getTrackerSettings = (signal?: Signal) => api<TrackerSettingsView>('tracker-settings', { signal })
export const saveTrackerSettings = (input: TrackerSettingsInput) => api<TrackerSettingsView>('tracker-settings', { method: 'PUT', body: input })
export const testTracker = () => api<TrackerTestResult>('tracker-test', { method: 'POST' })
export const syncTracker = () => api<TrackerSyncResult>('tracker-sync', { method: 'POST' })
export const getTrackerIssue = (id: number, signal?: Signal) => api<TrackerIssueView>('tracker-issue', { query: { id }, signal })
export const pushTrackerIssue = (id: number) => api<TrackerIssueView & { created: boolean }>('tracker-issue', { body: { id } })
export const getAccessAnalytics = (days: number, signal?: Signal) => api<AccessAnalytics>('access-analytics', { query: { days }, signal })
export const listReleases = (signal?: Signal) => api<{ data: ReleaseSummary[] }>('releases', { query: { limit: 50 }, signal })
export const listDeploys = (signal?: Signal) => api<{ data: DeployRow[]; markers: DeployMarker[] }>('deploys', { query: { limit: 50, days: 30 }, signal })
export const createDeploy = (input: { version: string; environment?: string; ref?: string; notes?: string }) => api<Deploy>('deploys', { method: 'POST', body: input })
export const deleteDeploy = (id: number) => api<{ id: number; deleted: boolean }>('deploys', { method: 'DELETE', body: { id } })
export const getReleaseSettings = (signal?: Signal) => api<ReleaseSettings>('release-settings', { signal })
export const saveReleaseSettings = (input: { repo_url_template: string; default_ref: string }) => api<ReleaseSettings>('release-settings', { method: 'PUT', body: input })
export const getIssueReleases = (id: number, signal?: Signal) => api<IssueReleases>('issue-releases', { query: { id }, signal })
export const listSourceMaps = (signal?: Signal) => api<{ data: SourceMapRow[] }>('source-maps', { signal })
export const deleteSourceMap = (id: number) => api<{ id: number; deleted: boolean }>('source-maps', { method: 'DELETE', body: { id } })
/** Connectors (docs/connectors.md): the body of a create or update, as the API reads it. */
export type ConnectorBody = Readonly<Record<string, unknown>>
export const listConnectors = (signal?: Signal) => api<{ data: Connector[] }>('connectors', { signal })
export const createConnector = (input: ConnectorBody) => api<Connector>('connectors', { method: 'POST', body: input })
export const updateConnector = (id: number, input: ConnectorBody) => api<Connector>('connectors', { method: 'PATCH', body: { id, ...input } })
export const deleteConnector = (id: number) => api<{ id: number; deleted: boolean }>('connectors', { method: 'DELETE', body: { id } })
export const testConnector = (id: number) => api<{ ok: boolean; message: string }>('connectors-test', { body: { id } })
export const previewConnector = (id: number) => api<ConnectorPlan>('connectors-preview', { body: { id } })
export const syncConnector = (id: number, snapshot: string) => api<ConnectorSyncAccepted>('connectors-sync', { body: { id, snapshot } })
export const listConnectorRuns = (signal?: Signal) => api<{ data: ConnectorRun[] }>('connectors-runs', { query: { limit: 25 }, signal })
