/**
 * Which database drivers the suite runs against. `LOUPE_DRIVERS` (comma-separated) narrows the set;
 * `tools/test.ts` sets it after probing for PostgreSQL and MySQL, and CI requires all four.
 */
import type { DriverTarget } from '../../tools/database-targets.ts'

export type { DriverTarget }
export const DRIVER_TARGETS: readonly DriverTarget[] = ['d1', 'libsql', 'neon', 'planetscale']

export function selectedDrivers(env: Record<string, string | undefined> = process.env): DriverTarget[] {
  const requested = env.LOUPE_DRIVERS?.split(',').map((name) => name.trim()).filter(Boolean)
  if (!requested?.length) return [...DRIVER_TARGETS]
  const unknown = requested.filter((name) => !(DRIVER_TARGETS as readonly string[]).includes(name))
  if (unknown.length) throw new Error(`LOUPE_DRIVERS names unknown drivers: ${unknown.join(', ')}`)
  return requested as DriverTarget[]
}
