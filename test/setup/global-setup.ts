import type { TestProject } from 'vitest/node'
import { selectedDrivers } from './driver-targets.ts'
import { startDatabaseTargets, type DriverConnections } from '../../tools/database-targets.ts'
import { startWebhookReceiver } from '../../tools/servers/webhook-receiver.ts'
import { startLinearServer } from '../../tools/servers/linear-server.ts'
import { startGithubServer } from '../../tools/servers/github-server.ts'
import { startNginx } from '../../tools/servers/nginx.ts'
import { startS3Server } from '../../tools/servers/s3-server.ts'

/**
 * Starts a local protocol server (and a fresh database) for every selected driver before any test runs,
 * and provides their bindings: `driverBindings[driver]` is the worker configuration for that driver. Also
 * a loopback webhook receiver for the alerting tests, local Linear (GraphQL) and GitHub (REST) APIs for the tracker tests, and nginx and an S3 server for the connector tests.
 */
export default async function setup(project: TestProject) {
  const targets = await startDatabaseTargets(selectedDrivers())
  const receiver = await startWebhookReceiver()
  const linear = await startLinearServer()
  const github = await startGithubServer()
  const nginx = await startNginx()
  const s3 = await startS3Server()
  project.provide('driverBindings', targets.bindings)
  project.provide('driverConnections', targets.connections)
  project.provide('webhookReceiverUrl', receiver.url)
  project.provide('linearServerUrl', linear.url)
  project.provide('githubServerUrl', github.url)
  project.provide('nginxUrl', nginx.url)
  project.provide('s3Url', s3.url)
  return async () => {
    await s3.close()
    await nginx.close()
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
    /** tools/servers/nginx.ts: the web server the connector tests publish log files on. */
    nginxUrl: string
    /** tools/servers/s3-server.ts: an S3-compatible server (s3rver) that checks SigV4 signatures. */
    s3Url: string
  }
}
