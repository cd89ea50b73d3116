import type { DriverTarget } from '../database-targets.ts'
import type { Measurement } from './measure.ts'

/** Prints one row per endpoint: per driver `round trips · median ms (p95)`, and the budget verdict. */
export function printTable(results: Map<DriverTarget, Measurement[]>): void {
  const drivers = [...results.keys()]
  const names = [...new Set([...results.values()].flatMap((list) => list.map((m) => m.name)))]
  const header = ['endpoint', ...drivers.map((d) => `${d}: RT · median (p95) ms`)]
  const rows = names.map((name) => [
    name,
    ...drivers.map((driver) => {
      const m = results.get(driver)!.find((entry) => entry.name === name)
      return m ? `${m.roundTrips} · ${m.medianMs.toFixed(1)} (${m.p95Ms.toFixed(1)})${m.failures ? ` ✗${m.failures}` : ''}` : '—'
    }),
  ])
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)))
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}`)
  for (const row of rows) console.log(line(row))
}
