import type { TestProject } from 'vitest/node'
import { selectedDrivers } from './driver-targets.ts'
import { startDatabaseTargets, type DriverConnections } from '../../tools/database-targets.ts'
import { startWebhookReceiver } from '../../tools/servers/webhook-receiver.ts'
import { startLinearServer } from '../../tools/servers/linear-server.ts'
import { startGithubServer } from '../../tools/servers/github-server.ts'

/**
 * Starts a local protocol server (and a fresh database) for every selected driver before any test runs,
 * and provides their bindings: `driverBindings[driver]` is the worker configuration for that driver. Also
 * a loopback webhook receiver for the alerting tests, and local Linear (GraphQL) and GitHub (REST) APIs for the tracker tests.
 */
export default async function setup(project: TestProject) {
  const targets = await startDatabaseTargets(selectedDrivers())
  const receiver = await startWebhookReceiver()
  const linear = await startLinearServer()
  const github = await startGithubServer()
  project.provide('driverBindings', targets.bindings)
  project.provide('driverConnections', targets.connections)
  project.provide('webhookReceiverUrl', receiver.url)
  project.provide('linearServerUrl', linear.url)
  project.provide('githubServerUrl', github.url)
  return async () => {
    await linear.close()
    await github.close()
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
    /** tools/servers/linear-server.ts: Linear's GraphQL API for the tracker tests. */
    linearServerUrl: string
    /** tools/servers/github-server.ts: GitHub's REST API for the tracker tests. */
    githubServerUrl: string
  }
}
