/** User-facing messages of the issue endpoints (reference-behaviour.md §2.8, §3.1). */
export const ISSUE_NOT_FOUND = 'Issue not found.'
export const UNSUPPORTED_STATUS = 'Unsupported issue status.'
export const UNSUPPORTED_SEVERITY = 'Unsupported issue severity.'
export const DATE_FORMAT = 'date must use YYYY-MM-DD.'
