import { namedBatch } from '../../../drivers/named-batch.ts'
import { TRACKER_MESSAGES, TRACKER_NAMES, type TrackerSyncResult } from '../../../shared/schemas/tracker.ts'
import { OperationalError } from '../../errors.ts'
import { appSettings } from '../../settings/app-settings.ts'
import { toTimestamp } from '../../time.ts'
import { trackerClient, trackerFor, type TrackerContext } from './tracker-context.ts'
import { mirrorStatements } from './tracker-mirror.ts'
import { filtersOf, loadIntegration, openApiKey } from './tracker-settings.ts'
import { SYNC_SETTING, type SyncState } from './tracker-sync-state.ts'

/**
 * `POST ?api=tracker-sync` (and every verified webhook): pulls the filtered tracker issues into Loupe issues
 * (reference §4.5). The first passes are the `backfill`, answering `has_more` until the whole filtered set has
 * been read; after that each call is `incremental` (issues updated after `synced_through`). Each page is
 * mirrored in one atomic batch together with the cursor, so an interrupted call resumes at the next page.
 * Round trips: one read, then one batch per page. Pages: `tracker.sync_pages` of `tracker.sync_page_size` (5 × 50).
 */
export async function syncTracker(context: TrackerContext): Promise<TrackerSyncResult> {
  const { sync_page_size: pageSize, sync_pages: pages } = context.config
  const { scope } = context
  const { integration, sync } = await loadIntegration(scope)
  const tracker = trackerFor(integration.provider)
  if (!integration.enabled) throw new OperationalError(TRACKER_MESSAGES.notEnabled)
  const filters = filtersOf(integration)
  const missing = tracker.missingFilter(filters)
  if (missing) throw new OperationalError(missing)
  const apiKey = await openApiKey(context, integration)
  if (!apiKey) throw new OperationalError(TRACKER_MESSAGES.keyRequired(TRACKER_NAMES[integration.provider], 'TRACKER_API_KEY'))
  const client = trackerClient(context, tracker, apiKey)

  let state: SyncState = sync
  const phase = state.backfill_complete ? 'incremental' : 'backfill'
  const totals = { pulled: 0, created: 0, updated: 0, tags_created: 0 }
  let hasMore = false
  for (let page = 0; page < pages; page++) {
    // A new pass starts from the newest update the last one saw (none during the backfill).
    const floor = state.cursor === null ? (state.backfill_complete ? state.synced_through : null) : state.pass_floor
    const result = await tracker.listIssues(client, filters, { cursor: state.cursor, updatedAfter: floor, pageSize })
    const passMax = result.issues.reduce<string | null>((max, issue) => maxOf(max, issue.updatedAt), state.cursor === null ? null : state.pass_max)
    const done = result.next === null
    const now = context.now
    state = done
      ? {
          cursor: null,
          pass_floor: null,
          pass_max: null,
          backfill_complete: true,
          synced_through: maxOf(state.synced_through, passMax),
          last_synced_at: toTimestamp(now),
        }
      : { ...state, cursor: result.next, pass_floor: floor, pass_max: passMax, last_synced_at: toTimestamp(now) }
    const stateWrite = appSettings.write(scope, SYNC_SETTING, JSON.stringify(state), toTimestamp(now))
    if (result.issues.length === 0) {
      await scope.db.execute(stateWrite)
    } else {
      const batch = await mirrorStatements(scope, tracker.provider, tracker.name, result.issues, now)
      const counts = await namedBatch(scope.db, { ...batch, state: stateWrite })
      const created = count(counts.groupsAfter.rows) - count(counts.groupsBefore.rows)
      totals.pulled += result.issues.length
      totals.created += created
      totals.updated += result.issues.length - created
      totals.tags_created += count(counts.tagsAfter.rows) - count(counts.tagsBefore.rows)
    }
    if (done) {
      hasMore = false
      break
    }
    hasMore = true
  }
  return {
    ok: true,
    provider: tracker.provider,
    ...totals,
    synced_at: toTimestamp(context.now),
    phase,
    has_more: hasMore,
    backfill_complete: state.backfill_complete,
  }
}

function maxOf(a: string | null, b: string | null): string | null {
  if (a === null) return b
  if (b === null) return a
  return a > b ? a : b
}

function count(rows: readonly Record<string, unknown>[]): number {
  return Number(rows[0]?.n ?? 0)
}
