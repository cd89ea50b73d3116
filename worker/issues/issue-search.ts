import { ISSUE_KINDS, ISSUE_ORIGINS, ISSUE_STATUSES, SEVERITIES, type IssueStatus, type Severity } from '../../shared/constants.ts'
import type { ServiceConfig } from '../config.ts'
import { InvalidInputError } from '../errors.ts'
import { queryBoolean, queryInteger, queryString, type Query } from '../http/query.ts'
import { DATE_FORMAT, UNSUPPORTED_SEVERITY, UNSUPPORTED_STATUS } from './issue-messages.ts'

/**
 * Longest `q` and `source` accepted, in characters (code points). The search is a plain substring test with
 * no engine limit of its own (D1 caps LIKE patterns at 50 bytes, which is why it is not a LIKE); the cap
 * keeps a request's work bounded and is documented in docs/api.md.
 */
export const SEARCH_TEXT_MAX_CHARACTERS = 200

/** `priority` (issue 17 item 3): severity band, then recent frequency — the dashboard's default, not the API's. */
export const ISSUE_SORTS = ['newest', 'oldest', 'occurrences', 'priority'] as const
export type IssueSort = (typeof ISSUE_SORTS)[number]

/** The filters of the issue search, combined with AND (reference §3.1). */
export interface IssueFilters {
  readonly q?: string
  readonly severity?: Severity
  /** This severity and worse (SEVERITIES order). */
  readonly minSeverity?: Severity
  readonly status?: IssueStatus
  readonly logType?: string
  readonly origin?: string
  readonly kind?: string
  readonly module?: string
  readonly source?: string
  readonly date?: string
  readonly tag?: string
  readonly hasStack?: boolean
}

export interface IssueSearch {
  readonly page: number
  readonly limit: number
  readonly sort: IssueSort
  readonly includeStack: boolean
  readonly includeContext: boolean
  readonly skipVendor: boolean
  readonly filters: IssueFilters
}

/**
 * Reads and validates the search parameters. Unlike the reference, values that cannot match anything
 * (an unknown severity, status, origin, kind or sort, a page or limit out of range) are a 422 naming the
 * parameter, not silently ignored (design.md §4).
 */
export function readIssueSearch(query: Query, config: ServiceConfig, defaults: { sort: IssueSort; samples: boolean }): IssueSearch {
  const sort = queryString(query, 'sort') ?? defaults.sort
  if (!(ISSUE_SORTS as readonly string[]).includes(sort)) throw new InvalidInputError('sort must be newest, oldest, occurrences or priority.')
  const date = queryString(query, 'date')
  if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new InvalidInputError(DATE_FORMAT)
  return {
    page: queryInteger(query, 'page', { min: 1, max: 1_000_000, fallback: 1 }),
    limit: queryInteger(query, 'limit', { min: 1, max: config.pagination.maxLimit, fallback: config.pagination.defaultLimit }),
    sort: sort as IssueSort,
    // `groups` includes the samples by default (reference §3.1); an explicit `include_stack=0` /
    // `include_context=0` leaves them out — the dashboard's slim rows (issue 17 item 4).
    includeStack: queryBoolean(query, 'include_stack', defaults.samples),
    includeContext: queryBoolean(query, 'include_context', defaults.samples),
    skipVendor: queryBoolean(query, 'skip_vendor', false),
    filters: {
      q: searchText(query, 'q'),
      severity: oneOf(queryString(query, 'severity')?.toUpperCase(), SEVERITIES, UNSUPPORTED_SEVERITY),
      minSeverity: oneOf(queryString(query, 'min_severity')?.toUpperCase(), SEVERITIES, UNSUPPORTED_SEVERITY),
      status: oneOf(queryString(query, 'status'), ISSUE_STATUSES, UNSUPPORTED_STATUS),
      logType: queryString(query, 'log_type'),
      origin: oneOf(queryString(query, 'origin'), ISSUE_ORIGINS, 'Unsupported issue origin.'),
      kind: oneOf(queryString(query, 'kind'), ISSUE_KINDS, 'Unsupported issue kind.'),
      module: queryString(query, 'module'),
      source: searchText(query, 'source'),
      date,
      tag: queryString(query, 'tag'),
      hasStack: queryBoolean(query, 'has_stack', undefined),
    },
  }
}

function searchText(query: Query, name: string): string | undefined {
  const value = queryString(query, name)
  if (value !== undefined && [...value].length > SEARCH_TEXT_MAX_CHARACTERS) {
    throw new InvalidInputError(`${name} must be at most ${SEARCH_TEXT_MAX_CHARACTERS} characters.`)
  }
  return value
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], message: string): T | undefined {
  if (value === undefined) return undefined
  if (!(allowed as readonly string[]).includes(value)) throw new InvalidInputError(message)
  return value as T
}
