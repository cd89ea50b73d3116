import type { Connector, ConnectorRun } from '../../../shared/schemas/connectors.ts'

/**
 * The connectors whose list entry is older than their newest finished run, as a key ('' when none).
 *
 * A run's end and its connector's `last_status`/`last_synced_at` are written in one batch with the same stamp
 * (worker/connectors/connector-run.ts), so a finished run whose `finished_at` is later than the connector's
 * `last_synced_at` proves the connectors' answer predates it. The panel reads the two lists side by side, and a
 * run can finish between the two answers, or before the panel ever saw it running.
 */
export function staleConnectors(connectors: readonly Connector[] | undefined, runs: readonly ConnectorRun[] | undefined): string {
  if (!connectors || !runs) return ''
  const synced = new Map(connectors.map((connector) => [connector.id, connector.last_synced_at ?? '']))
  return runs
    .filter((run) => run.finished_at !== null && synced.has(run.connector_id) && synced.get(run.connector_id)! < run.finished_at)
    .map((run) => `${run.connector_id}@${run.finished_at}`)
    .join(',')
}
