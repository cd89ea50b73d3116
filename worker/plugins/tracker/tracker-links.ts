import type { Statement } from '../../../drivers/driver.ts'
import { readRow } from '../../../drivers/read-row.ts'
import { TRACKER_PROVIDERS, type TrackerLink } from '../../../shared/schemas/tracker.ts'
import type { AppScope } from '../../apps/app-scope.ts'

const SHAPE = { provider: TRACKER_PROVIDERS, external_id: 'string', identifier: 'string', url: 'string', state: 'string?', via: ['push', 'sync'], created_at: 'string' } as const

/** The link of one issue (`tracker_links`, migration 0010). */
export function linkStatement(scope: AppScope, groupId: number): Statement {
  return { sql: `SELECT provider, external_id, identifier, url, state, via, created_at FROM ${scope.t.trackerLinks} WHERE group_id = ?`, args: [groupId] }
}

export function toLink(rows: readonly Record<string, unknown>[]): TrackerLink | null {
  const row = rows[0]
  if (!row) return null
  const link = readRow(row, SHAPE, 'tracker link')
  return { ...link, state: link.state ?? null }
}
