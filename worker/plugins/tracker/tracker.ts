import type { IssueStatus, Severity } from '../../../shared/constants.ts'
import type { TrackerProvider } from '../../../shared/schemas/tracker.ts'
import type { OutboundPolicy } from '../../security/outbound.ts'

/**
 * One issue tracker behind the integration (issue 16): Linear (linear.ts) and GitHub Issues (github.ts). A third
 * tracker is one more file implementing this and one line in trackers.ts; nothing else knows which is which.
 */
export interface Tracker {
  readonly provider: TrackerProvider
  /** How users call it: `Linear`. */
  readonly name: string
  /** Where its API lives unless `SERVICE_CONFIG` says otherwise (tests point it at tools/servers/). */
  readonly defaultBaseUrl: string
  /** The header its webhook signature comes in (`Linear-Signature`, `X-Hub-Signature-256`). */
  readonly signatureHeader: string
  /** The message when the filters would pull the whole workspace or name no repository; null when they are enough. */
  missingFilter(filters: TrackerFilters): string | null
  /** The message when a tracker issue cannot be created with these settings (no team, no repository); null when it can. */
  missingPushTarget(filters: TrackerFilters): string | null
  /** Who the credentials belong to (`tracker-test`). */
  viewer(client: TrackerClient): Promise<TrackerViewer>
  /** One page of the issues the filters select, updated after `updatedAfter` when given, from `cursor` on. */
  listIssues(client: TrackerClient, filters: TrackerFilters, page: PageRequest): Promise<IssuePage>
  /**
   * Moves the tracker issue to the state matching `status` and adds `comment` when given. Null when the tracker
   * has no state for that status (it is left alone).
   */
  setStatus(client: TrackerClient, externalId: string, status: IssueStatus, comment: string | null): Promise<{ readonly state: string } | null>
  /** Creates a tracker issue (push) and returns it as a sync would see it. */
  createIssue(client: TrackerClient, filters: TrackerFilters, draft: IssueDraft): Promise<ExternalIssue>
  /** The expected signature header value for a raw webhook body (compared in constant time by the caller). */
  expectedSignature(secret: string, rawBody: Uint8Array): Promise<string>
}

/** What a call to the tracker needs: where, with which key, under which outbound policy (design.md §6). */
export interface TrackerClient {
  readonly baseUrl: string
  readonly apiKey: string
  readonly policy: OutboundPolicy
}

/** The sync filters (reference §4.5; `repository` is GitHub's). Emails are lower-cased by the settings schema. */
export interface TrackerFilters {
  readonly labels: readonly string[]
  readonly assignedToMe: boolean
  readonly assignees: readonly string[]
  readonly teamKey: string | null
  readonly repository: string | null
}

export interface TrackerViewer {
  readonly id: string
  readonly name: string
  readonly email: string | null
}

export interface PageRequest {
  /** Where the previous page ended (the tracker's own cursor), or null for the first page. */
  readonly cursor: string | null
  /** ISO time: only issues updated after it (incremental passes). */
  readonly updatedAfter: string | null
  readonly pageSize: number
}

export interface IssuePage {
  readonly issues: readonly ExternalIssue[]
  /** The cursor of the next page, or null when this was the last. */
  readonly next: string | null
}

/** A tracker issue in Loupe's terms: the mapping table of reference §4.5 is applied by each tracker. */
export interface ExternalIssue {
  readonly id: string
  /** `ENG-12`, `#34`. */
  readonly identifier: string
  readonly title: string
  readonly description: string | null
  readonly url: string
  readonly severity: Severity
  readonly status: IssueStatus
  /** The tracker's state name (`In Progress`, `open`). */
  readonly state: string
  readonly labels: readonly { readonly name: string; readonly color: string | null }[]
  readonly assignee: string | null
  /** The team key or repository: Loupe's `channel`. */
  readonly container: string | null
  /** ISO times. */
  readonly createdAt: string
  readonly updatedAt: string
  /** Kept as the issue's `sample_context` (reference §4.5). */
  readonly context: Readonly<Record<string, unknown>>
}

/** What push sends: the issue's title and a Markdown body (link back, stack excerpt). */
export interface IssueDraft {
  readonly title: string
  readonly body: string
}
