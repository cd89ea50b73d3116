import type { TestProject } from 'vitest/node'
import { selectedDrivers } from './driver-targets.ts'
import { startDatabaseTargets, type DriverConnections } from '../../tools/database-targets.ts'
import { startWebhookReceiver } from '../../tools/servers/webhook-receiver.ts'

/**
 * Starts a local protocol server (and a fresh database) for every selected driver before any test runs,
 * and provides their bindings: `driverBindings[driver]` is the worker configuration for that driver. Also
 * a loopback webhook receiver for the alerting tests.
 */
export default async function setup(project: TestProject) {
  const targets = await startDatabaseTargets(selectedDrivers())
  const receiver = await startWebhookReceiver()
  project.provide('driverBindings', targets.bindings)
  project.provide('driverConnections', targets.connections)
  project.provide('webhookReceiverUrl', receiver.url)
  return async () => {
    await receiver.close()
    await targets.stop()
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    driverBindings: Record<string, Record<string, string>>
    driverConnections: DriverConnections
    /** tools/servers/webhook-receiver.ts: where alerting tests point their channels. */
    webhookReceiverUrl: string
  }
}
