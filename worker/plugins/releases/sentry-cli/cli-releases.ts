import type { AppScope } from '../../../apps/app-scope.ts'

/**
 * Registers a version sentry-cli named (`releases new`, an upload): inserted into `releases` with the time
 * Loupe first heard of it as its first and last seen; an existing row keeps its own (events move them).
 */
export async function registerRelease(scope: AppScope, version: string, now: string): Promise<void> {
  const d = scope.db.dialect
  await scope.db.execute({ sql: d.insertIgnore(scope.t.releases, ['version', 'first_seen', 'last_seen', 'created_at'], 'VALUES (?, ?, ?, ?)', ['version']), args: [version, now, now, now] })
}

/** Whether any part of Loupe knows the version: events, deploys or maps. */
export async function releaseKnown(scope: AppScope, version: string): Promise<boolean> {
  const { t, db } = scope
  const rel = db.dialect.quote('release')
  const { rows } = await db.execute({
    sql: `SELECT (SELECT COUNT(*) FROM ${t.releases} WHERE version = ?) + (SELECT COUNT(*) FROM ${t.deploys} WHERE version = ?) + (SELECT COUNT(*) FROM ${t.sourceMaps} WHERE ${rel} = ?) AS n`,
    args: [version, version, version],
  })
  return Number(rows[0]?.n ?? 0) > 0
}

/**
 * The release object sentry-cli parses (sentry-cli-protocol.md): `version` and an RFC 3339 `dateCreated` are
 * required — Loupe's usual `YYYY-MM-DD HH:MM:SS` makes the CLI fail.
 */
export function releaseRecord(scope: AppScope, version: string, now: Date, dateReleased: string | null) {
  return {
    version,
    dateCreated: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    dateReleased,
    lastEvent: null,
    newGroups: 0,
    url: null,
    projects: [{ slug: scope.app.id, name: scope.app.name }],
  }
}
