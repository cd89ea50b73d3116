/**
 * Database work done for one request: round trips (network requests, or D1 binding calls) and the time
 * spent waiting on them. Reported in `Server-Timing` and read by `npm run bench` (design.md §5).
 */
export class DatabaseStats {
  roundTrips = 0
  milliseconds = 0

  /** The `Server-Timing` header value, e.g. `db;dur=12;desc="3 round trips"`. */
  toServerTiming(): string {
    return `db;dur=${Math.round(this.milliseconds * 10) / 10};desc="${this.roundTrips} round trips"`
  }
}
