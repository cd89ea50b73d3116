/**
 * An issue's `heat` (migration 0013): its occurrences weighted by day, `Σ count × weight(day)` with
 * `weight(day) = 2^((day − HEAT_EPOCH) / HEAT_HALF_LIFE_DAYS)`. It stands for the recent frequency of the
 * `priority` sort (issue 17 item 3) as an exponentially decayed event count with a 7-day half-life: at any
 * moment `now`, the decayed count is `heat × 2^(−(now − HEAT_EPOCH) / 7)`, the same factor for every issue, so
 * ranking by `heat` IS ranking by the decayed count and nothing is ever re-scored as time passes — the list
 * walks an index on it (issue 18: list reads at 1,000,000 occurrences within 2× the small corpus).
 *
 * Weights grow by 2 a week: doubles overflow at 2^1024, about 19.6 years after the epoch (2044-08). Before
 * then a maintenance rebase (divide every `heat` by 2^k and move the epoch k weeks later) is needed; until
 * 2040 the largest weight is below 2^783, so sums of billions of events stay far from the limit.
 */

/** Day 0 of the weights (`YYYY-MM-DD`, UTC). */
export const HEAT_EPOCH = '2025-01-01'

/** Half-life of an occurrence's weight in days. */
export const HEAT_HALF_LIFE_DAYS = 7

const EPOCH_MS = Date.parse(`${HEAT_EPOCH}T00:00:00Z`)
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/

/**
 * The weight of one occurrence on `day` (`YYYY-MM-DD`, the form of `occurrences.occurred_day`).
 * @throws RangeError for anything that is not a calendar day (the digest only stores normalised timestamps).
 */
export function heatWeight(day: string): number {
  if (!isDay(day)) throw new RangeError(`Not a day: ${day}`)
  const ms = Date.parse(`${day}T00:00:00Z`)
  return 2 ** ((ms - EPOCH_MS) / 86_400_000 / HEAT_HALF_LIFE_DAYS)
}

/**
 * The weights of the distinct days of `timestamps` (ISO, `YYYY-MM-DD…`), as the JSON array of `[day, weight]`
 * pairs the digest binds as one parameter (persist-statements.ts): one parameter whatever the number of days,
 * where a `CASE` with two arguments per day would pass D1's 100-parameter limit on a batch of old logs.
 */
export function heatWeightsJson(timestamps: Iterable<string>): string {
  const pairs = new Map<string, number>()
  for (const timestamp of timestamps) {
    const day = timestamp.slice(0, 10)
    if (pairs.has(day) || !isDay(day)) continue
    // A day past the doubles' range (a clock far in the future) adds nothing rather than an overflow error.
    const weight = heatWeight(day)
    pairs.set(day, Number.isFinite(weight) ? weight : 0)
  }
  // A timestamp that is no day has no pair: the digest's LEFT JOIN counts its occurrence and adds no heat.
  return `[${[...pairs].map(([day, weight]) => `[${JSON.stringify(day)},${realJson(weight)}]`).join(',')}]`
}

function isDay(day: string): boolean {
  return DAY_PATTERN.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`))
}

/** A heat as the JSON `[[heat]]` of a one-row `jsonTuples({ heat: 'real' })` (merge-issues.ts). */
export function heatParameterJson(heat: number): string {
  return `[[${realJson(heat)}]]`
}

/**
 * A double as a JSON number that every engine reads as a double: always with an exponent. JSON.stringify
 * writes integral values below 1e21 as digits (2^70 → "1180591620717411300000"), which SQLite's JSON reader
 * takes for an integer ("integer overflow" past 2^63) and sums as integers.
 */
function realJson(value: number): string {
  return value.toExponential()
}
