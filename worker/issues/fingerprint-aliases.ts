import type { Tables } from '../apps/tables.ts'

/**
 * Fingerprint aliases of merged issues (migration 0015, `merge-issues.ts`). The digest resolves them inside the
 * statements it already runs — a correlated lookup on the aliases' primary key per fingerprint, no extra round
 * trip — so events whose fingerprint belonged to a merged issue keep grouping into the merge target.
 *
 * Invariant that makes one lookup enough: every alias names an issue that exists. A merge only creates
 * aliases to an existing target and re-points the aliases of the issues it deletes (no chains), and
 * `delete-occurrences.ts` never deletes an emptied issue that aliases point to (so reindex, retention and log
 * deletion keep merges: the emptied target stays, and re-imported events fill it again).
 */

/** SQL expression: the fingerprint the issue of `fingerprint` (an SQL expression) is stored under. */
export function resolvedFingerprint(t: Tables, fingerprint: string): string {
  return `COALESCE((SELECT ia.target_fingerprint FROM ${t.issueAliases} ia WHERE ia.fingerprint = ${fingerprint}), ${fingerprint})`
}

/** SQL condition: `fingerprint` (an SQL expression) belongs to a merged issue. */
export function isAliased(t: Tables, fingerprint: string): string {
  return `EXISTS (SELECT 1 FROM ${t.issueAliases} ia WHERE ia.fingerprint = ${fingerprint})`
}

/** SQL condition: an alias groups into the issue row `groupAlias` (so that issue must not be deleted when emptied). */
export function isMergeTarget(t: Tables, groupAlias: string): string {
  return `EXISTS (SELECT 1 FROM ${t.issueAliases} ia WHERE ia.target_fingerprint = ${groupAlias}.fingerprint)`
}
