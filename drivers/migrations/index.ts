import type { Dialect } from '../dialect/dialect.ts'
import type { MigrationSet } from './migration.ts'
import { registry0001 as sqliteRegistry0001 } from './sqlite/0001-registry.ts'
import { application0001 as sqliteApplication0001 } from './sqlite/0001-issues.ts'
import { application0002 as sqliteApplication0002 } from './sqlite/0002-ingestion.ts'
import { application0003 as sqliteApplication0003 } from './sqlite/0003-import-indexes.ts'
import { application0004 as sqliteApplication0004 } from './sqlite/0004-daily-counts.ts'
import { application0005 as sqliteApplication0005 } from './sqlite/0005-import-intake.ts'
import { application0006 as sqliteApplication0006 } from './sqlite/0006-ingest.ts'
import { application0007 as sqliteApplication0007 } from './sqlite/0007-alerts.ts'
import { application0011 as sqliteApplication0011 } from './sqlite/0011-connectors.ts'
import { registry0001 as postgresRegistry0001 } from './postgres/0001-registry.ts'
import { application0001 as postgresApplication0001 } from './postgres/0001-issues.ts'
import { application0002 as postgresApplication0002 } from './postgres/0002-ingestion.ts'
import { application0003 as postgresApplication0003 } from './postgres/0003-import-indexes.ts'
import { application0004 as postgresApplication0004 } from './postgres/0004-daily-counts.ts'
import { application0005 as postgresApplication0005 } from './postgres/0005-import-intake.ts'
import { application0006 as postgresApplication0006 } from './postgres/0006-ingest.ts'
import { application0007 as postgresApplication0007 } from './postgres/0007-alerts.ts'
import { application0011 as postgresApplication0011 } from './postgres/0011-connectors.ts'
import { registry0001 as mysqlRegistry0001 } from './mysql/0001-registry.ts'
import { application0001 as mysqlApplication0001 } from './mysql/0001-issues.ts'
import { application0002 as mysqlApplication0002 } from './mysql/0002-ingestion.ts'
import { application0003 as mysqlApplication0003 } from './mysql/0003-import-indexes.ts'
import { application0004 as mysqlApplication0004 } from './mysql/0004-daily-counts.ts'
import { application0005 as mysqlApplication0005 } from './mysql/0005-import-intake.ts'
import { application0006 as mysqlApplication0006 } from './mysql/0006-ingest.ts'
import { application0007 as mysqlApplication0007 } from './mysql/0007-alerts.ts'
import { application0011 as mysqlApplication0011 } from './mysql/0011-connectors.ts'

/** Every migration, per dialect, in version order. Each dialect must list the same versions. */
export const MIGRATIONS: Readonly<Record<Dialect['name'], MigrationSet>> = {
  sqlite: { registry: [sqliteRegistry0001], application: [sqliteApplication0001, sqliteApplication0002, sqliteApplication0003, sqliteApplication0004, sqliteApplication0005, sqliteApplication0006, sqliteApplication0007, sqliteApplication0011] },
  postgres: { registry: [postgresRegistry0001], application: [postgresApplication0001, postgresApplication0002, postgresApplication0003, postgresApplication0004, postgresApplication0005, postgresApplication0006, postgresApplication0007, postgresApplication0011] },
  mysql: { registry: [mysqlRegistry0001], application: [mysqlApplication0001, mysqlApplication0002, mysqlApplication0003, mysqlApplication0004, mysqlApplication0005, mysqlApplication0006, mysqlApplication0007, mysqlApplication0011] },
}
