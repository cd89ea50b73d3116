import { DriverError } from '../../drivers/driver-error.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import type { Statement } from '../../drivers/driver.ts'
import { sql } from '../../drivers/sql.ts'
import { TAG_DEFAULTS } from '../../shared/constants.ts'
import { TAG_MESSAGES, type Tag, type TagInput } from '../../shared/schemas/tag.ts'
import type { Actor } from '../actor.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { InvalidInputError, NotFoundError } from '../errors.ts'
import { applyTagRules, lockTagRules, RULE_TARGETS } from './tag-rules.ts'
import { nameKey, selectTags, toTag } from './tag-queries.ts'

/** `GET ?api=tags`: every tag with its live issue count and rules, ordered by name — one round trip. */
export async function listTags(scope: AppScope): Promise<Tag[]> {
  const { rows } = await scope.db.execute({ sql: selectTags(scope) })
  return rows.map(toTag)
}

/**
 * `POST ?api=tags`: creates the tag and its rule and applies the rule — one atomic batch. The answer is built
 * from what the writes report (the new ids, the rule's assignments counted by the rule pass) rather than read
 * back: a new tag has no other assignments yet, and on PlanetScale the read-back was a request of its own
 * (issue 18: a tag without a rule is one statement, no BEGIN/COMMIT). The name's uniqueness is the only
 * constraint the batch can break, so a constraint failure is the duplicate-name error (nothing was written).
 */
export async function createTag(scope: AppScope, input: TagInput, actor: Actor, now: string): Promise<Tag> {
  const tag = normalize(input)
  const { t, db } = scope
  const returning = db.dialect.returningId
  const results = await asTagWrite(
    namedBatch(db, {
      lock: lockTagRules(scope),
      tag: {
        sql: `INSERT INTO ${t.tags} (name, name_key, color, icon, created_at, updated_at, created_by, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)${returning}`,
        args: [tag.name, tag.key, tag.color, tag.icon, now, now, actor.label, actor.label],
      },
      rule: tag.matchWord
        ? {
            sql: `INSERT INTO ${t.tagRules} (tag_id, match_word, enabled, created_at) SELECT id, ?, 1, ? FROM ${t.tags} WHERE name_key = ?${returning}`,
            args: [tag.matchWord, now, tag.key],
          }
        : null,
      // Its last statement is the INSERT of the assignments (a shared rules lock may come first).
      applied: tag.matchWord ? applyTagRules(scope, RULE_TARGETS.tagNamed(scope, tag.key), now) : null,
    }),
  )
  const ruleId = results.rule?.lastInsertId
  return {
    id: insertedId(results.tag.lastInsertId),
    name: tag.name,
    color: tag.color,
    icon: tag.icon,
    created_at: now,
    updated_at: now,
    created_by: actor.label,
    updated_by: actor.label,
    issue_count: results.applied?.at(-1)?.rowsAffected ?? 0,
    rules: results.rule ? [{ id: insertedId(ruleId), match_word: tag.matchWord, enabled: true }] : [],
  }
}

/** A tag write: its statements, then the read of the tag as it stands after them — one batch. */
export interface TagWrite {
  readonly writes: Statement[]
  readonly tag: Statement
}

/** All statements of a tag write in batch order (for running it as one transaction elsewhere). */
export function tagWriteStatements(write: TagWrite): Statement[] {
  return [...write.writes, write.tag]
}

/**
 * `PUT`/`PATCH ?api=tags`: a full replace (omitted fields return to their defaults). The tag's rule-made
 * assignments and its rule are dropped, the rule is rebuilt and re-applied; manual assignments stay
 * (seed §4.2 rule 4). One atomic batch; an unknown id changes nothing and is a 404.
 */
export async function updateTag(scope: AppScope, id: number, input: TagInput, actor: Actor, now: string): Promise<Tag> {
  const row = (await writeTag(scope, updateTagStatements(scope, id, input, actor, now))).tag.rows[0]
  if (!row) throw new NotFoundError(TAG_MESSAGES.notFound)
  return toTag(row)
}

/** The batch of `updateTag`; its last statement reads the tag back. */
export function updateTagStatements(scope: AppScope, id: number, input: TagInput, actor: Actor, now: string): TagWrite {
  const tag = normalize(input)
  const { t } = scope
  const statements: Statement[] = [
    ...lockTagRules(scope),
    {
      sql: `UPDATE ${t.tags} SET name = ?, name_key = ?, color = ?, icon = ?, updated_at = ?, updated_by = ? WHERE id = ?`,
      args: [tag.name, tag.key, tag.color, tag.icon, now, actor.label, id],
    },
    ...dropRule(scope, id),
  ]
  if (tag.matchWord) {
    statements.push({
      sql: `INSERT INTO ${t.tagRules} (tag_id, match_word, enabled, created_at) SELECT id, ?, 1, ? FROM ${t.tags} WHERE id = ?`,
      args: [tag.matchWord, now, id],
    })
    statements.push(...applyTagRules(scope, RULE_TARGETS.tag(id), now))
  }
  return { writes: statements, tag: { sql: selectTags(scope, 't.id = ?'), args: [id] } }
}

/**
 * `DELETE ?api=tags`: the tag, its rule and all its assignments (seed §4.2 rule 5) — one atomic batch. Where
 * the engine enforces the migrations' ON DELETE CASCADE keys the tag's DELETE takes its rule and assignments
 * with it: one statement, so on PlanetScale one round trip without BEGIN/COMMIT (issue 18).
 */
export async function deleteTag(scope: AppScope, id: number): Promise<{ id: number; deleted: true }> {
  const { t, db } = scope
  const cascades = db.dialect.cascadesDeletes
  const { tag } = await namedBatch(db, {
    lock: lockTagRules(scope),
    rules: cascades ? null : { sql: `DELETE FROM ${t.tagRules} WHERE tag_id = ?`, args: [id] },
    assignments: cascades ? null : { sql: `DELETE FROM ${t.groupTags} WHERE tag_id = ?`, args: [id] },
    tag: { sql: `DELETE FROM ${t.tags} WHERE id = ?`, args: [id] },
  })
  if (tag.rowsAffected === 0) throw new NotFoundError(TAG_MESSAGES.notFound)
  return { id, deleted: true }
}

/**
 * Deletes the tag's rule and its rule-made assignments — one statement on MySQL (dialect.deleteRelated).
 * The rule row is visited before the assignments: on MySQL the delete waits for a rule pass still holding
 * the rule row, so the assignments that pass made are committed, and deleted, by the time it reads them.
 */
function dropRule(scope: AppScope, id: number): Statement[] {
  const { t, db } = scope
  return db.dialect.deleteRelated(t.tags, 'dt', sql`dt.id = ${id}`, [
    { table: t.tagRules, alias: 'dr', on: 'dr.tag_id = dt.id' },
    { table: t.groupTags, alias: 'dg', on: "dg.tag_id = dt.id AND dg.source = 'rule'" },
  ])
}

function normalize(input: TagInput) {
  const name = input.name.trim()
  return {
    name,
    key: nameKey(name),
    color: (input.color ?? TAG_DEFAULTS.color).toLowerCase(),
    icon: input.icon ?? TAG_DEFAULTS.icon,
    matchWord: input.match_word?.trim() ?? '',
  }
}

async function writeTag(scope: AppScope, write: TagWrite) {
  // The read-back may run after the commit (PlanetScale: the transaction then holds its locks one request less).
  return await asTagWrite(namedBatch(scope.db, { writes: write.writes, tag: write.tag }, { readBack: ['tag'] }))
}

/** A tag batch's outcome, its constraint failure being the duplicate-name error. */
async function asTagWrite<R>(batch: Promise<R>): Promise<R> {
  try {
    return await batch
  } catch (error) {
    if (error instanceof DriverError && error.code === 'constraint') throw new InvalidInputError(TAG_MESSAGES.duplicate)
    throw error
  }
}

/** The id an INSERT reported (the last-insert id, or PostgreSQL's RETURNING id, which the driver reports as such). */
function insertedId(id: number | undefined): number {
  if (id === undefined) throw new Error('tags: the INSERT reported no id')
  return id
}
