import type { Deps } from '../deps.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { deleteOccurrences } from '../digest/persist/delete-occurrences.ts'
import { appSettings, settingValue } from '../settings/app-settings.ts'
import { toTimestamp } from '../time.ts'

/** Occurrence retention (reference §3.6): both rules 0 (off) by default. */
export interface OccurrencePolicy {
  /** `retention.occurrences_max_age_days`: occurrences older than this many days are deleted. */
  readonly maxAgeDays: number
  /** `retention.max_occurrences_per_group`: only the newest N occurrences of each issue are kept. */
  readonly maxPerGroup: number
}

export interface OccurrencePruneResult {
  readonly enabled: boolean
  readonly deleted: number
  readonly empty_issue_groups: number
  /** True when the run was skipped because the last one was less than 900 s ago. */
  readonly skipped?: boolean
}

/** Runs are throttled to one per 900 s per application (reference §3.6), tracked in `app_settings`. */
export const RETENTION_INTERVAL_SECONDS = 900
const LAST_RUN_KEY = 'retention.occurrences_last_run'

export function occurrencePolicy(deps: Pick<Deps, 'config'>): OccurrencePolicy {
  const { retention } = deps.config
  return { maxAgeDays: retention.occurrences_max_age_days, maxPerGroup: retention.max_occurrences_per_group }
}

/**
 * Prunes occurrences by age and per issue, then brings the affected issues back in step (counts, first/last
 * seen, per-day rollups; ingested issues left empty are deleted; manual and Linear issues are never touched).
 * Called after every completed import and from the cron trigger.
 */
export async function pruneOccurrences(scope: AppScope, policy: OccurrencePolicy, now: Date, throttle = true): Promise<OccurrencePruneResult> {
  if (policy.maxAgeDays <= 0 && policy.maxPerGroup <= 0) return { enabled: false, deleted: 0, empty_issue_groups: 0 }
  const nowSeconds = Math.floor(now.getTime() / 1000)
  if (throttle) {
    const { rows } = await scope.db.execute(appSettings.read(scope, LAST_RUN_KEY))
    const last = Number(settingValue(rows) ?? 0)
    if (nowSeconds - last < RETENTION_INTERVAL_SECONDS) return { enabled: true, deleted: 0, empty_issue_groups: 0, skipped: true }
  }
  const mark = appSettings.write(scope, LAST_RUN_KEY, String(nowSeconds), toTimestamp(now))
  let deleted = 0
  let empty = 0
  if (policy.maxAgeDays > 0) {
    const cutoff = toTimestamp(new Date(now.getTime() - policy.maxAgeDays * 86_400_000))
    const outcome = await deleteOccurrences(scope, { where: 'occurred_at < ?', args: [cutoff] })
    deleted += outcome.occurrences
    empty += outcome.emptyIssueGroups
  }
  if (policy.maxPerGroup > 0) {
    const { t } = scope
    // Only issues holding more than N occurrences are ranked; the derived table keeps MySQL from refusing a
    // DELETE that reads its own table.
    const outcome = await deleteOccurrences(scope, {
      where: `id IN (SELECT ranked.id FROM (
          SELECT id, ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY occurred_at DESC, id DESC) AS rn
          FROM ${t.occurrences} WHERE group_id IN (SELECT g.id FROM ${t.groups} g WHERE g.count > ?)
        ) ranked WHERE ranked.rn > ?)`,
      args: [policy.maxPerGroup, policy.maxPerGroup],
    })
    deleted += outcome.occurrences
    empty += outcome.emptyIssueGroups
  }
  await scope.db.execute(mark)
  return { enabled: true, deleted, empty_issue_groups: empty }
}
