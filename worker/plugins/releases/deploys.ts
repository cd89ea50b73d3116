import { DriverError } from '../../../drivers/driver-error.ts'
import { namedBatch } from '../../../drivers/named-batch.ts'
import { readRow } from '../../../drivers/read-row.ts'
import { RELEASE_MESSAGES, type Deploy, type DeployInput, type DeployMarker, type DeployRow } from '../../../shared/schemas/releases.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { InvalidInputError, NotFoundError } from '../../errors.ts'
import { toTimestamp } from '../../time.ts'

const SHAPE = { id: 'number', version: 'string', environment: 'string', ref: 'string?', notes: 'string?', deployed_at: 'string', created_at: 'string' } as const

/**
 * `GET ?api=deploys&limit&days` (reference §4.4): the latest deploys with the number of issues that have an
 * occurrence in their version, and the deploys of the last `days` days as chart markers. One read batch.
 */
export async function listDeploys(scope: AppScope, limit: number, days: number, now: Date): Promise<{ data: DeployRow[]; markers: DeployMarker[] }> {
  const { t } = scope
  const since = toTimestamp(new Date(now.getTime() - days * 86_400_000))
  const rel = scope.db.dialect.quote('release')
  const { deploys, markers } = await namedBatch(
    scope.db,
    {
      deploys: {
        sql: `SELECT d.id, d.version, d.environment, d.ref, d.notes, d.deployed_at, d.created_at,
            (SELECT COUNT(*) FROM ${t.releaseGroups} rg WHERE rg.${rel} = d.version) AS issue_count
          FROM ${t.deploys} d ORDER BY d.deployed_at DESC, d.id DESC LIMIT ?`,
        args: [limit],
      },
      markers: {
        sql: `SELECT version, environment, ref, deployed_at FROM ${t.deploys} WHERE deployed_at >= ? ORDER BY deployed_at, id`,
        args: [since],
      },
    },
    { mode: 'read' },
  )
  return {
    data: deploys.rows.map((row) => ({ ...readRow(row, SHAPE, 'deploy'), ...readRow(row, { issue_count: 'number' }, 'deploy') })),
    markers: markers.rows.map((row) => {
      const marker = readRow(row, { version: 'string', environment: 'string', ref: 'string?', deployed_at: 'string' }, 'deploy marker')
      return { ...marker, day: marker.deployed_at.slice(0, 10) }
    }),
  }
}

/** `POST ?api=deploys`: one insert; a second deploy of the same version to the same environment is refused. */
export async function createDeploy(scope: AppScope, input: DeployInput, now: Date): Promise<Deploy> {
  const environment = input.environment ?? 'production'
  const deployedAt = input.deployed_at === undefined || input.deployed_at === null ? toTimestamp(now) : parseDeployTime(input.deployed_at)
  const created = toTimestamp(now)
  const ref = input.ref || null
  const notes = input.notes || null
  try {
    const inserted = await scope.db.execute({
      sql: `INSERT INTO ${scope.t.deploys} (version, environment, ref, notes, deployed_at, created_at) VALUES (?, ?, ?, ?, ?, ?)${scope.db.dialect.returningId}`,
      args: [input.version, environment, ref, notes, deployedAt, created],
    })
    return { id: inserted.lastInsertId!, version: input.version, environment, ref, notes, deployed_at: deployedAt, created_at: created }
  } catch (error) {
    if (error instanceof DriverError && error.code === 'constraint') throw new InvalidInputError(RELEASE_MESSAGES.duplicate(input.version, environment))
    throw error
  }
}

/** `DELETE ?api=deploys&id`: 404 `Release not found.` for an unknown id. */
export async function deleteDeploy(scope: AppScope, id: number): Promise<{ id: number; deleted: true }> {
  const { rowsAffected } = await scope.db.execute({ sql: `DELETE FROM ${scope.t.deploys} WHERE id = ?`, args: [id] })
  if (!rowsAffected) throw new NotFoundError(RELEASE_MESSAGES.deployNotFound)
  return { id, deleted: true }
}

/**
 * Reference §4.4: "any parseable time, converted to UTC" — ISO 8601 and RFC 2822 text (a time without a zone
 * is read as UTC) or Unix seconds.
 */
export function parseDeployTime(value: string | number): string {
  let date: Date
  if (typeof value === 'number') date = new Date(value * 1000)
  else {
    const text = value.trim()
    const zoned = /(Z|[+-]\d{2}:?\d{2}|\b(?:UTC|GMT))$/i.test(text) || !/^\d{4}-\d{2}-\d{2}/.test(text)
    date = new Date(zoned ? text : `${text.replace(' ', 'T')}${text.length <= 10 ? 'T00:00:00' : ''}Z`)
  }
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1970 || date.getUTCFullYear() > 9999) throw new InvalidInputError(RELEASE_MESSAGES.deployedAt)
  return toTimestamp(date)
}
