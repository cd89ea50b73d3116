/** A registered application (a row of `loupe_applications`). */
export interface Application {
  readonly id: string
  readonly name: string
  /** Number behind the application's table prefix (`app<namespace>_`); never reused. */
  readonly namespace: number
  readonly created_at: string
}

/** The application every installation has (design.md §2). */
export const DEFAULT_APPLICATION_ID = 'default'
