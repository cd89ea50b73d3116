import { DriverError } from '../../drivers/driver-error.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { MODULE_DEFAULT_COLOR } from '../../shared/constants.ts'
import { slugify } from '../../shared/schemas/application.ts'
import { MODULE_MESSAGES, type Module, type ModuleInput } from '../../shared/schemas/module.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { InvalidInputError } from '../errors.ts'
import { nameKey } from '../tags/tag-queries.ts'

/**
 * Each module's issue count from `issue_rollup` (migration 0016: issues per module, severity, status and log
 * type, kept by triggers), as `summary` reads it: a few rows per module, where counting the module's range of
 * the issues' `module_id` index grew with its issues (issue 18: `modules` 1.9–2.2× from 2,305 to 99,992 issues).
 */
function selectModules(scope: AppScope, where: string): string {
  const { t } = scope
  return `SELECT m.id, m.name, m.slug, m.color, m.created_at,
      (SELECT COALESCE(SUM(r.issues), 0) FROM ${t.issueRollup} r WHERE r.module_key = m.id) AS issue_count
    FROM ${t.modules} m WHERE ${where} ORDER BY m.name_key, m.id`
}

/** `GET ?api=modules`: every module with its issue count, by name (case-insensitive) — one round trip. */
export async function listModules(scope: AppScope): Promise<Module[]> {
  const { rows } = await scope.db.execute({ sql: selectModules(scope, '1 = 1') })
  return rows.map(toModule)
}

/**
 * `POST ?api=modules` (reference §3.3): the slug comes from `slug` or the name (lower-case, other runs of
 * characters become `-`). Name and slug are unique, case-insensitively; the insert and the read-back are one
 * atomic batch, and a uniqueness failure is the duplicate error.
 */
export async function createModule(scope: AppScope, input: ModuleInput, now: string): Promise<Module> {
  const name = input.name.trim()
  const slug = slugify(input.slug?.trim() || name)
  if (slug === '') throw new InvalidInputError(MODULE_MESSAGES.slug)
  const color = (input.color ?? MODULE_DEFAULT_COLOR).toLowerCase()
  const { t, db } = scope
  try {
    const { created } = await namedBatch(db, {
      insert: { sql: `INSERT INTO ${t.modules} (name, name_key, slug, color, created_at) VALUES (?, ?, ?, ?, ?)`, args: [name, nameKey(name), slug, color, now] },
      created: { sql: selectModules(scope, 'm.slug = ?'), args: [slug] },
    })
    return toModule(created.rows[0]!)
  } catch (error) {
    if (error instanceof DriverError && error.code === 'constraint') throw new InvalidInputError(MODULE_MESSAGES.duplicate)
    throw error
  }
}

function toModule(row: Record<string, unknown>): Module {
  return {
    id: Number(row.id),
    name: String(row.name),
    slug: String(row.slug),
    color: String(row.color),
    created_at: String(row.created_at),
    issue_count: Number(row.issue_count),
  }
}
