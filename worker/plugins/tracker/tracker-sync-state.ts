import type { TrackerSyncState } from '../../../shared/schemas/tracker.ts'

/** Where the sync remembers where it is (reference §4.5: cursor, backfill_complete, synced_through, floor). */
export const SYNC_SETTING = 'tracker.sync'

/**
 * The sync's memory between calls. A pass (the backfill, then each incremental pass) pages through the
 * tracker with `cursor`, always under the same floor (`pass_floor`: only issues updated after it), while
 * `pass_max` collects the newest `updatedAt` seen; when the pass reaches its last page, that becomes
 * `synced_through`, the floor of the next pass. So a call interrupted between pages resumes where it stopped,
 * and issues updated during a pass are caught by the next one.
 */
export interface SyncState {
  readonly cursor: string | null
  readonly pass_floor: string | null
  readonly pass_max: string | null
  readonly backfill_complete: boolean
  readonly synced_through: string | null
  readonly last_synced_at: string | null
}

const EMPTY: SyncState = { cursor: null, pass_floor: null, pass_max: null, backfill_complete: false, synced_through: null, last_synced_at: null }

export function readSyncState(raw: string | null): SyncState {
  if (raw === null) return EMPTY
  try {
    return { ...EMPTY, ...(JSON.parse(raw) as Partial<SyncState>) }
  } catch {
    return EMPTY
  }
}

export function syncStateView(state: SyncState): TrackerSyncState {
  return {
    phase: state.backfill_complete ? 'incremental' : 'backfill',
    backfill_complete: state.backfill_complete,
    synced_through: state.synced_through,
    last_synced_at: state.last_synced_at,
  }
}
