import type { Driver } from '../../drivers/index.ts'
import type { Application } from './application.ts'
import type { Tables } from './tables.ts'

/** What an application-scoped handler works on: the application, its database and its table names. */
export interface AppScope {
  readonly app: Application
  readonly db: Driver
  readonly t: Tables
}
