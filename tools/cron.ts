/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week, UTC), as Cloudflare's cron
 * triggers read them: `*`, lists, ranges, steps and three-letter month/day names. `npm start` uses this to fire
 * the worker's scheduled handler locally, because `wrangler dev` never does (it only prints how to trigger it).
 */
const FIELDS = [
  { min: 0, max: 59, names: [] as string[] },
  { min: 0, max: 23, names: [] },
  { min: 1, max: 31, names: [] },
  { min: 1, max: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] },
  { min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
] as const

export interface CronSchedule {
  readonly expression: string
  matches(at: Date): boolean
}

/** Parses one expression; throws on anything it cannot read, so a typo in wrangler.toml is loud. */
export function parseCron(expression: string): CronSchedule {
  const parts = expression.trim().split(/\s+/)
  if (parts.length !== 5) throw new Error(`cron "${expression}" needs 5 fields`)
  const sets = parts.map((part, i) => parseField(part, FIELDS[i]!, expression))
  const [minutes, hours, days, months, weekdays] = sets as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>]
  // Day 7 is Sunday as well as 0.
  if (weekdays.has(7)) weekdays.add(0)
  const dayRestricted = parts[2] !== '*'
  const weekdayRestricted = parts[4] !== '*'
  return {
    expression,
    matches(at) {
      if (!minutes.has(at.getUTCMinutes()) || !hours.has(at.getUTCHours()) || !months.has(at.getUTCMonth() + 1)) return false
      const day = days.has(at.getUTCDate())
      const weekday = weekdays.has(at.getUTCDay())
      // Classic cron: when both day fields are restricted, either one matching is enough.
      if (dayRestricted && weekdayRestricted) return day || weekday
      return day && weekday
    },
  }
}

function parseField(part: string, field: (typeof FIELDS)[number], expression: string): Set<number> {
  const values = new Set<number>()
  for (const item of part.split(',')) {
    const [range, stepText] = item.split('/') as [string, string | undefined]
    const step = stepText === undefined ? 1 : Number(stepText)
    if (!Number.isInteger(step) || step < 1) throw new Error(`cron "${expression}": bad step in "${item}"`)
    let [low, high] = [field.min, field.max] as number[]
    if (range !== '*') {
      const [from, to] = range.split('-') as [string, string | undefined]
      low = value(from, field, expression)
      high = to === undefined ? (stepText === undefined ? low : field.max) : value(to, field, expression)
    }
    if (low! > high!) throw new Error(`cron "${expression}": empty range "${item}"`)
    for (let n = low!; n <= high!; n += step) values.add(n)
  }
  return values
}

function value(text: string, field: (typeof FIELDS)[number], expression: string): number {
  const named = (field.names as readonly string[]).indexOf(text.toUpperCase())
  const n = named >= 0 ? named + field.min : Number(text)
  if (!Number.isInteger(n) || n < field.min || n > field.max) throw new Error(`cron "${expression}": "${text}" is out of range`)
  return n
}

/** The `crons = [...]` of wrangler.toml's `[triggers]`. */
export function readCronTriggers(wranglerToml: string): string[] {
  const match = /^\s*crons\s*=\s*\[([^\]]*)\]/m.exec(wranglerToml)
  if (!match) return []
  return [...match[1]!.matchAll(/"([^"]*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2]!)
}
