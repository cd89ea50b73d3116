import type { IssueBadge } from '../../shared/schemas/issue.ts'
import type { IssueStatus } from '../../shared/constants.ts'
import { toTimestamp } from '../time.ts'

/** Occurrences today (UTC) an issue needs before it can be `escalating`: a handful is noise, not a trend. */
export const ESCALATING_MIN_TODAY = 10
/** How far above its average day of the previous week today must be for `escalating`. */
export const ESCALATING_FACTOR = 3

/**
 * The badges of a list row (issue 17 item 3), in this order, documented in docs/api.md:
 * - `new`: first seen within the last 24 hours;
 * - `regressed`: status `reoccurred` — a fixed issue that occurred again (reference §2.8);
 * - `escalating`: today's occurrences (UTC day, the rollup's grain) are at least ESCALATING_MIN_TODAY and at
 *   least ESCALATING_FACTOR × the average day of the 7 days before today. The daily rollup has no hours, so
 *   "today" is the UTC day so far, not a sliding 24 hours.
 */
export function issueBadges(issue: { first_seen: string; status: IssueStatus }, trend: readonly number[], now: Date): IssueBadge[] {
  const badges: IssueBadge[] = []
  if (issue.first_seen >= toTimestamp(new Date(now.getTime() - 86_400_000))) badges.push('new')
  if (issue.status === 'reoccurred') badges.push('regressed')
  const today = trend[trend.length - 1] ?? 0
  const week = trend.slice(-8, -1)
  const average = week.reduce((sum, count) => sum + count, 0) / 7
  if (today >= ESCALATING_MIN_TODAY && today >= ESCALATING_FACTOR * average) badges.push('escalating')
  return badges
}
