import type { TestProject } from 'vitest/node'
import { selectedDrivers } from './driver-targets.ts'
import { startDatabaseTargets, type DriverConnections } from '../../tools/database-targets.ts'

/**
 * Starts a local protocol server (and a fresh database) for every selected driver before any test runs,
 * and provides their bindings: `driverBindings[driver]` is the worker configuration for that driver.
 */
export default async function setup(project: TestProject) {
  const targets = await startDatabaseTargets(selectedDrivers())
  project.provide('driverBindings', targets.bindings)
  project.provide('driverConnections', targets.connections)
  return targets.stop
}

declare module 'vitest' {
  export interface ProvidedContext {
    driverBindings: Record<string, Record<string, string>>
    driverConnections: DriverConnections
  }
}
