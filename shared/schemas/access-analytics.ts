/**
 * `GET ?api=access-analytics` (reference §4.6; docs/access-analytics.md). Shared by the worker and the
 * dashboard's Access analytics page.
 */
export interface AccessAnalytics {
  readonly window_days: number
  /** Every access line of the window, whatever the severity allow-list stored as occurrences. */
  readonly total: number
  /** Distinct paths in the window (the `(other)` overflow bucket not counted). */
  readonly unique_paths: number
  /** (4xx + 5xx) / total, rounded to 4 decimals; 0 without traffic. */
  readonly error_rate: number
  readonly status_classes: readonly { readonly class: string; readonly count: number }[]
  /** Days with traffic, oldest first; `errors` counts statuses ≥ 400. */
  readonly by_day: readonly { readonly day: string; readonly count: number; readonly errors: number }[]
  readonly top_paths: readonly { readonly path: string; readonly count: number; readonly errors: number }[]
  readonly error_paths: readonly { readonly path: string; readonly errors: number }[]
  readonly methods: readonly { readonly method: string; readonly count: number }[]
  readonly top_agents: readonly { readonly agent: string; readonly count: number }[]
}

/** Reference §4.6: `?days=7`, clamped to 1..90. */
export const ACCESS_DAYS = { fallback: 7, min: 1, max: 90 } as const
export const ACCESS_LIMITS = { topPaths: 15, errorPaths: 10, agents: 8 } as const

export const ACCESS_MESSAGES = {
  days: `days must be an integer from ${ACCESS_DAYS.min} to ${ACCESS_DAYS.max}.`,
} as const
