import pg from 'pg'

/**
 * `VACUUM ANALYZE` of a whole PostgreSQL database. The bench's local PostgreSQL may run with
 * `autovacuum = off` (this machine's does), while hosted Neon vacuums and analyzes on its own: without it,
 * every import upsert leaves a dead row version in the issue table and its indexes (`count` and `last_seen`
 * are indexed, so no HOT update), index-only scans are impossible, and the planner has no statistics — a
 * 10,000-issue summary took 617 ms instead of 11 (docs/performance.md). The scale bench runs this after its
 * imports, before measuring, to stand in for autovacuum.
 */
export async function vacuumPostgres(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    await client.query('VACUUM ANALYZE')
  } finally {
    await client.end()
  }
}
