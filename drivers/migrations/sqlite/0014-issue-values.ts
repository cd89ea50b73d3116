import type { Migration } from '../migration.ts'

/**
 * Migration 0014 (application): `issue_values`, the per-issue value breakdown (issue 17 item 7, issue 18's
 * bound): how many occurrences of an issue carried each value of a few keys (url, user, ip, environment,
 * release, server). Filled at digest time (worker/digest/issue-value-rollup.ts), never by scanning
 * occurrences per request, and capped per issue and key — values past the cap count as `(other)` — so a hot
 * issue with 1,000,000 occurrences still has a few hundred rows at most. No backfill: occurrences store
 * only a 12,000-character preview of their context, so rows start with the events digested after it.
 */
export const application0014: Migration = {
  version: 14,
  name: 'issue-values',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}issue_values" (
      group_id INTEGER NOT NULL,
      name TEXT NOT NULL,
      value TEXT NOT NULL,
      count INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (group_id, name, value)
    )`,
  ],
}
