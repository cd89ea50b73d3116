import { DriverError } from '../../drivers/driver-error.ts'
import type { Statement } from '../../drivers/driver.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { toPositiveInteger } from '../../shared/schemas/fields.ts'
import type { ManualIssueInput } from '../../shared/schemas/issue.ts'
import type { Actor } from '../actor.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { InvalidInputError } from '../errors.ts'
import { applyTagRules, RULE_TARGETS } from '../tags/tag-rules.ts'
import { issueStatement, toIssueDetail, type IssueDetail } from './issue-detail.ts'
import { manualFingerprint } from './manual-fingerprint.ts'
import { ISSUE_SIGNATURE_COLUMNS, SIGNATURE_COLUMNS, textSignature } from './search-signature.ts'
import { parseJson } from '../../drivers/dialect/dialect.ts'
import { Fragment, join, raw, sql } from '../../drivers/sql.ts'

/**
 * `POST ?api=issues` (alias `errors`): a manual issue (reference §3.1). The issue, its first history row, its
 * manual tags and a rule pass are written and read back in one atomic batch — one round trip (PlanetScale:
 * BEGIN, three statements, COMMIT, the read-back after it). The chosen tags and module are checked inside the
 * issue's INSERT (`guardedFingerprint`); only when that refuses the row are they read, for the message.
 */
export async function createManualIssue(scope: AppScope, input: ManualIssueInput, actor: Actor, now: string): Promise<IssueDetail> {
  const issue = normalize(input)
  const { t, db } = scope
  const fingerprint = manualFingerprint()
  // The chosen tags' ids as a list (its one parameter the JSON array): checked by the issue's INSERT, then inserted.
  const tags = new Fragment(`(SELECT j.id FROM ${db.dialect.jsonRecords({ id: 'integer' }, 'j')})`, [JSON.stringify(issue.tagIds.map((id) => ({ id })))])
  const guarded = guardedFingerprint(scope, fingerprint, issue.tagIds.length ? { list: tags, count: issue.tagIds.length } : null, issue.moduleId)
  const context = JSON.stringify({ origin: 'manual', kind: issue.kind, module_id: issue.moduleId })
  const message = issue.description ?? issue.title
  // Its search signature, where the schema keeps one: in the issue row itself (MySQL, migration 0023), or with
  // an UPDATE after the INSERT whose trigger made it unknown (SQLite, migration 0021).
  const mode = db.dialect.searchSignature
  const signature = mode ? textSignature({ title: issue.title, message, exceptionClass: null, sourceFrame: issue.sourceFrame }) : []
  const signed = mode === 'issue-columns' ? ISSUE_SIGNATURE_COLUMNS : []
  const statements: Statement[] = [
    {
      sql: `INSERT INTO ${t.groups} (fingerprint, severity, environment, title, source_frame, count, first_seen, last_seen,
          sample_message, sample_context, created_at, status, status_updated_at, log_type, channel, origin, kind, module_id${signed.map((column) => `, ${column}`).join('')})
        VALUES (${guarded.sql}, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, 'manual', 'manual', 'manual', ?, ?${signed.map(() => ', ?').join('')})`,
      args: [...guarded.args, issue.severity, issue.environment, issue.title, issue.sourceFrame, now, now,
        message, context, now, issue.status, now, issue.kind, issue.moduleId, ...(signed.length ? signature : [])],
    },
    ...(mode === 'statement'
      ? [{
          sql: `UPDATE ${t.searchSignatures} SET ${SIGNATURE_COLUMNS.map((column) => `${column} = ?`).join(', ')}
            WHERE id = (SELECT id FROM ${t.groups} WHERE fingerprint = ?)`,
          args: [...signature, fingerprint],
        }]
      : []),
    {
      sql: `INSERT INTO ${t.history} (group_id, from_status, to_status, note, created_at, actor)
        SELECT id, NULL, ?, ?, ?, ? FROM ${t.groups} WHERE fingerprint = ?`,
      args: [issue.status, issue.note ?? `Created manually as ${issue.kind.replaceAll('_', ' ')}.`, now, actor.label, fingerprint],
    },
  ]
  // The manual tags ride in the rule pass's INSERT (issue 18: each statement is a PlanetScale round trip); a tag
  // chosen by hand stays manual even where a rule also matches, as the rule part skips it.
  const manual = issue.tagIds.length
    ? sql`SELECT g.id AS group_id, mt.id AS tag_id, 'manual' AS source, ${now} AS created_at
        FROM ${raw(t.groups)} g, ${tags} mt WHERE g.fingerprint = ${fingerprint}`
    : undefined
  const target = manual ? sql`${RULE_TARGETS.fingerprint(fingerprint)} AND r.tag_id NOT IN ${tags}` : RULE_TARGETS.fingerprint(fingerprint)
  statements.push(...applyTagRules(scope, target, now, manual))
  const { created } = await namedBatch(db, { writes: statements, created: issueStatement(scope, 'g.fingerprint = ?', [fingerprint]) }, { readBack: ['created'] }).catch(
    async (error: unknown) => {
      // A refused row wrote nothing (the batch is atomic): say which reference is missing, if one is.
      if (error instanceof DriverError && error.code === 'constraint') await checkReferences(scope, issue.tagIds, issue.moduleId)
      throw error
    },
  )
  return toIssueDetail(created.rows[0]!, [], { page: 1, limit: 100, includeContext: true, skipVendor: false })
}

function normalize(input: ManualIssueInput) {
  const text = (value: string | undefined) => (value === undefined || value === null || value.trim() === '' ? null : value.trim())
  const tagIds = (input.tag_ids ?? []).map((value) => {
    const id = toPositiveInteger(value)
    if (id === null) throw new InvalidInputError(`Tag ${String(value)} does not exist.`)
    return id
  })
  return {
    title: input.title.trim(),
    description: text(input.description),
    kind: input.kind,
    severity: input.severity,
    status: input.status,
    sourceFrame: text(input.source_frame),
    environment: input.environment?.trim() ?? 'local',
    note: text(input.note),
    tagIds: [...new Set(tagIds)],
    moduleId: input.module_id === undefined || input.module_id === null || input.module_id === '' ? null : toPositiveInteger(input.module_id),
  }
}

/**
 * The new issue's fingerprint, given only when every chosen tag and the module exist: otherwise NULL, which the
 * NOT NULL fingerprint refuses, failing the batch before anything is written. The check rides in the INSERT
 * (issue 18: a separate read was a round trip of its own on every driver). The tag count is a literal and the
 * CASE's one parameter is text, so PostgreSQL needs no casts.
 */
function guardedFingerprint(scope: AppScope, fingerprint: string, tags: { list: Fragment; count: number } | null, moduleId: number | null): Fragment {
  const { t } = scope
  const conditions: Fragment[] = []
  if (tags) conditions.push(sql`(SELECT COUNT(*) FROM ${raw(t.tags)} tx WHERE tx.id IN ${tags.list}) = ${raw(String(tags.count))}`)
  if (moduleId !== null) conditions.push(sql`EXISTS (SELECT 1 FROM ${raw(t.modules)} mx WHERE mx.id = ${moduleId})`)
  return conditions.length ? sql`CASE WHEN ${join(conditions, ' AND ')} THEN ${fingerprint} END` : sql`${fingerprint}`
}

/** One read: which of the tags exist, and whether the module does (the message of a refused issue). */
async function checkReferences(scope: AppScope, tagIds: number[], moduleId: number | null): Promise<void> {
  if (!tagIds.length && moduleId === null) return
  const { t, db } = scope
  const { rows } = await db.execute({
    sql: `SELECT (SELECT COUNT(*) FROM ${t.modules} WHERE id = ?) AS module_exists,
      ${db.dialect.jsonArray({ id: 'tx.id' }, `FROM ${t.tags} tx WHERE tx.id IN (SELECT j.id FROM ${db.dialect.jsonRecords({ id: 'integer' }, 'j')})`)} AS tags`,
    args: [moduleId ?? 0, JSON.stringify(tagIds.map((id) => ({ id })))],
  })
  const row = rows[0]!
  const found = new Set(parseJson<{ id: number }[]>(row.tags, []).map((tag) => Number(tag.id)))
  const missing = tagIds.find((id) => !found.has(id))
  if (missing !== undefined) throw new InvalidInputError(`Tag ${missing} does not exist.`)
  if (moduleId !== null && Number(row.module_exists) === 0) throw new InvalidInputError(`Module ${moduleId} does not exist in this application.`)
}
