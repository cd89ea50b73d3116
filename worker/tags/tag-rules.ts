import type { Statement } from '../../drivers/driver.ts'
import { raw, sql, type Fragment } from '../../drivers/sql.ts'
import { advisoryLockKey } from '../../drivers/migrate.ts'
import type { AppScope } from '../apps/app-scope.ts'

/**
 * Which issues and rules a rule pass covers: a condition over `g` (issues) and `r` (rules), with its
 * arguments (drivers/sql.ts). Rules only ever add assignments (reference §3.2), so a pass over the issues an
 * import just touched is equivalent to re-applying every rule to every issue.
 */
export type RuleTarget = Fragment

export const RULE_TARGETS = {
  /** Every rule over every issue. */
  all: (): RuleTarget => sql`1 = 1`,
  /** One tag's rule over every issue (tag update). */
  tag: (tagId: number): RuleTarget => sql`r.tag_id = ${tagId}`,
  /** One tag's rule, the tag found by its name key (tag create: its id is not known yet). */
  tagNamed: (scope: AppScope, key: string): RuleTarget => sql`r.tag_id = (SELECT id FROM ${raw(scope.t.tags)} WHERE name_key = ${key})`,
  /** Every rule over one issue, found by fingerprint (a manual issue being created). */
  fingerprint: (fingerprint: string): RuleTarget => sql`g.fingerprint = ${fingerprint}`,
}

/**
 * The rule pass (seed §2 "Tag rule"), for a batch: for every enabled rule, attach its tag with source `rule`
 * to every issue whose title, sample message or exception class contains the word, case-insensitively.
 * Existing assignments — manual ones included — are left as they are.
 *
 * Atomic against rule changes (issue 10 defect 5; seed §4.2 rule 4: rule-made assignments are what the
 * current rules produce). A pass running beside a tag update must neither apply the old word after the
 * update dropped its assignments, nor miss the new word for issues the update could not see yet:
 * - PostgreSQL runs batches in READ COMMITTED, each statement on a snapshot from its start. The pass first
 *   takes the application's rules lock shared (`lockTagRules` takes it exclusive, first thing in every rule
 *   change), so it waits for a rule change in progress and then reads the committed rules; a rule change
 *   waits for passes in progress and then sees their issues and assignments.
 * - MySQL (InnoDB, REPEATABLE READ): INSERT … SELECT reads its source rows with shared next-key locks, so the
 *   pass waits for a rule change holding the rule rows and reads the latest committed ones, and a rule change
 *   waits for the pass's rule-row locks and inserted assignments.
 * - SQLite (D1, libSQL) runs one write batch at a time.
 *
 * `alongside` is a SELECT of more `(group_id, tag_id, source, created_at)` rows for the same INSERT; the target
 * must keep the rule part off their keys (an INSERT cannot skip a key it inserts twice on every engine).
 */
export function applyTagRules(scope: AppScope, target: RuleTarget, now: string, alongside?: Fragment): Statement[] {
  const { t, db } = scope
  const d = db.dialect
  const matches = ['g.title', 'g.sample_message', 'g.exception_class'].map((column) => d.containsCi(column, 'r.match_word'))
  const rules = sql`SELECT g.id AS group_id, r.tag_id AS tag_id, 'rule' AS source, ${now} AS created_at FROM ${raw(t.groups)} g JOIN ${raw(t.tagRules)} r ON r.enabled = 1
    WHERE (${target}) AND (${raw(matches.join(' OR '))})`
  // Rows inserted along with the rule-made ones, in the same statement (a manual issue's own tags).
  const source = alongside ? sql`SELECT u.group_id, u.tag_id, u.source, u.created_at FROM (${alongside} UNION ALL ${rules}) u WHERE 1 = 1` : rules
  return [
    ...rulesLock(scope, 'shared'),
    { sql: d.insertIgnore(t.groupTags, ['group_id', 'tag_id', 'source', 'created_at'], source.sql, ['group_id', 'tag_id']), args: source.args },
  ]
}

/**
 * The first statement(s) of a batch that changes rules (tag create, update, delete): the rules lock,
 * exclusive, where the engine needs it (see `applyTagRules`).
 */
export function lockTagRules(scope: AppScope): Statement[] {
  return rulesLock(scope, 'exclusive')
}

function rulesLock(scope: AppScope, mode: 'shared' | 'exclusive'): Statement[] {
  const sql = scope.db.dialect.batchLock(advisoryLockKey(scope.t.tagRules), mode)
  return sql ? [{ sql }] : []
}
