import { describe, expect, it } from 'vitest'
import { staleConnectors } from '../../../../dashboard/src/lib/connector-freshness.ts'
import type { Connector, ConnectorRun } from '../../../../shared/schemas/connectors.ts'

const connector = (id: number, last_synced_at: string | null): Connector => ({
  id, name: `c${id}`, type: 'http', enabled: true, module_id: null, module_name: null, module_slug: null, module_color: null, stream_count: 1,
  config: { urls: ['http://files.test/app.log'] }, has_credentials: false, credentials_hint: null, sync_interval_minutes: null,
  last_synced_at, last_status: last_synced_at === null ? null : 'success', last_error: null, created_at: '2026-11-27 09:00:00', updated_at: null,
})
const run = (id: number, connector_id: number, status: ConnectorRun['status'], finished_at: string | null): ConnectorRun => ({
  id, connector_id, status, files_discovered: 1, files_completed: 1, files_updated: 1, bytes_total: 10, bytes_fetched: 10, events_indexed: 3,
  current_file: null, message: null, started_at: '2026-11-27 09:59:00', updated_at: finished_at ?? '2026-11-27 09:59:30', finished_at,
  connector_name: `c${connector_id}`, connector_type: 'http',
})

describe('staleConnectors (the connectors panel reads the list again after a run ends)', () => {
  it('names a connector whose newest finished run is later than its last synchronization', () => {
    expect(staleConnectors([connector(1, null)], [run(7, 1, 'success', '2026-11-27 10:00:00')])).toBe('1@2026-11-27 10:00:00')
    expect(staleConnectors([connector(1, '2026-11-27 09:00:00'), connector(2, null)], [run(8, 1, 'failed', '2026-11-27 10:00:01'), run(7, 2, 'success', '2026-11-27 10:00:00')]))
      .toBe('1@2026-11-27 10:00:01,2@2026-11-27 10:00:00')
  })

  it('is empty once the list has caught up, while runs are unfinished, for deleted connectors, and before both lists arrive', () => {
    expect(staleConnectors([connector(1, '2026-11-27 10:00:00')], [run(7, 1, 'success', '2026-11-27 10:00:00'), run(6, 1, 'success', '2026-11-27 09:00:00')])).toBe('')
    expect(staleConnectors([connector(1, null)], [run(7, 1, 'running', null), run(6, 1, 'queued', null)])).toBe('')
    expect(staleConnectors([connector(1, null)], [run(7, 9, 'success', '2026-11-27 10:00:00')])).toBe('')
    expect(staleConnectors(undefined, [run(7, 1, 'success', '2026-11-27 10:00:00')])).toBe('')
    expect(staleConnectors([connector(1, null)], undefined)).toBe('')
  })
})
