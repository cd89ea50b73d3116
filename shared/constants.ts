/**
 * Vocabulary shared by the worker and the dashboard. Orders matter: `SEVERITIES` is the sort and summary
 * order (reference-behaviour.md §2.1) and `STATUS_SUMMARY_ORDER` the summary order of statuses (§2.8).
 */

/** Severity levels, most severe first. */
export const SEVERITIES = ['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR', 'WARNING', 'NOTICE', 'INFO', 'DEBUG'] as const
export type Severity = (typeof SEVERITIES)[number]

/**
 * Severities indexed by file import when an application has not chosen its own: WARNING and everything more
 * severe. Deliberate deviation: the reference's ERROR+WARNING dropped EMERGENCY, ALERT and CRITICAL — the most
 * severe failures (docs/deviations.md).
 */
export const DEFAULT_INGESTED_SEVERITIES: readonly Severity[] = ['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR', 'WARNING']

/** Issue workflow statuses; any status may move to any other (reference §2.8). */
export const ISSUE_STATUSES = ['open', 'in_progress', 'fixed', 'wont_fix', 'reoccurred'] as const
export type IssueStatus = (typeof ISSUE_STATUSES)[number]

/** The order the summary lists statuses in. */
export const STATUS_SUMMARY_ORDER: readonly IssueStatus[] = ['open', 'in_progress', 'reoccurred', 'fixed', 'wont_fix']

/** Where an issue came from (reference §2.7). */
export const ISSUE_ORIGINS = ['ingested', 'manual', 'linear', 'github'] as const
export type IssueOrigin = (typeof ISSUE_ORIGINS)[number]

/** Issue kinds; ingested issues are `error`, manual ones one of the other four (reference §2.7). */
export const ISSUE_KINDS = ['error', 'issue', 'bug', 'feature_request', 'task'] as const
export type IssueKind = (typeof ISSUE_KINDS)[number]
export const MANUAL_ISSUE_KINDS = ['issue', 'bug', 'feature_request', 'task'] as const

/** How a tag came to be on an issue (reference §1.2 `error_group_tags.source`; the reference's `linear` is `tracker`, docs/tracker.md). */
export const TAG_SOURCES = ['manual', 'rule', 'ingest', 'tracker'] as const
export type TagSource = (typeof TAG_SOURCES)[number]

/** Page sizes of list endpoints (reference §3 "Common request facts"). */
export const PAGINATION = { defaultLimit: 50, maxLimit: 200 } as const

/** Tag defaults and limits (seed §2, §8). */
export const TAG_DEFAULTS = { color: '#64748b', icon: 'tag' } as const
export const TAG_LIMITS = { nameMax: 80, matchWordMax: 200 } as const
export const TAG_ICON_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/
export const HEX_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/

/** Module defaults (reference §3.3). */
export const MODULE_DEFAULT_COLOR = '#6366f1'
