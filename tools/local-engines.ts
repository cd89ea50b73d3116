import pg from 'pg'
import mysql from 'mysql2/promise'

/**
 * The local PostgreSQL and MySQL/MariaDB engines the Neon and PlanetScale protocol servers sit in front of.
 * Defaults match the CI machine (PostgreSQL trust auth on 127.0.0.1:5432, MariaDB root without password on
 * 127.0.0.1:3306); `LOUPE_POSTGRES_URL` and `LOUPE_MYSQL_URL` override them. A database named in their path
 * (`postgresql://me@db.internal:5433/loupe_dev`) is the one `npm start` uses; tests always make their own.
 */
export const LOCAL_ENGINES = {
  postgresUrl: serverUrl(process.env.LOUPE_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432'),
  mysqlServerUrl: serverUrl(process.env.LOUPE_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306'),
  /** The database `npm start --driver neon` uses: the path of `LOUPE_POSTGRES_URL`, else `loupe`. */
  postgresDatabase: databaseOf(process.env.LOUPE_POSTGRES_URL) ?? 'loupe',
  /** The database `npm start --driver planetscale` uses: the path of `LOUPE_MYSQL_URL`, else `loupe`. */
  mysqlDatabase: databaseOf(process.env.LOUPE_MYSQL_URL) ?? 'loupe',
  /** The connection string the Neon client sends; it validates `user:password@host/db`, trust auth ignores the password. */
  neonConnectionString(database: string): string {
    const url = new URL(this.postgresUrl)
    if (!url.password) url.password = 'local'
    url.pathname = `/${database}`
    return url.toString()
  },
  mysqlUrl(database: string): string {
    return `${this.mysqlServerUrl}/${database}`
  },
}

/** The engine's address without a database path (its query string, e.g. sslmode, is dropped too). */
function serverUrl(raw: string): string {
  const url = new URL(raw)
  return `${url.protocol}//${url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : ''}${url.host}`
}

function databaseOf(raw: string | undefined): string | undefined {
  if (!raw) return undefined
  const name = decodeURIComponent(new URL(raw).pathname.replace(/^\/+|\/+$/g, ''))
  return name || undefined
}

/** Drops and recreates a PostgreSQL database (terminating leftover connections). */
export async function recreatePostgresDatabase(database: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${LOCAL_ENGINES.postgresUrl}/postgres` })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)
    await client.query(`CREATE DATABASE "${database}"`)
  } finally {
    await client.end()
  }
}

/** Drops a PostgreSQL database if it exists (a run's own, at its end). */
export async function dropPostgresDatabase(database: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${LOCAL_ENGINES.postgresUrl}/postgres` })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)
  } finally {
    await client.end()
  }
}

/** Creates a PostgreSQL database unless it exists (kept between `npm start` runs). */
export async function ensurePostgresDatabase(database: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${LOCAL_ENGINES.postgresUrl}/postgres` })
  await client.connect()
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`)
  } finally {
    await client.end()
  }
}

/** Drops and recreates a MySQL database. */
export async function recreateMysqlDatabase(database: string): Promise<void> {
  const connection = await mysql.createConnection(LOCAL_ENGINES.mysqlServerUrl)
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${database}\``)
    await connection.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)
  } finally {
    await connection.end()
  }
}

/** Drops a MySQL database if it exists (a run's own, at its end). */
export async function dropMysqlDatabase(database: string): Promise<void> {
  const connection = await mysql.createConnection(LOCAL_ENGINES.mysqlServerUrl)
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${database}\``)
  } finally {
    await connection.end()
  }
}

/** Creates a MySQL database unless it exists. */
export async function ensureMysqlDatabase(database: string): Promise<void> {
  const connection = await mysql.createConnection(LOCAL_ENGINES.mysqlServerUrl)
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)
  } finally {
    await connection.end()
  }
}

/** Whether an engine answers at all (used to decide which parity legs can run locally). */
export async function isPostgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: `${LOCAL_ENGINES.postgresUrl}/postgres`, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query('SELECT 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

export async function isMysqlReachable(): Promise<boolean> {
  try {
    const connection = await mysql.createConnection({ uri: LOCAL_ENGINES.mysqlServerUrl, connectTimeout: 2000 })
    await connection.query('SELECT 1')
    await connection.end()
    return true
  } catch {
    return false
  }
}
