import type { SqlValue, Statement } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'

/**
 * Which issues and rules a rule pass covers, as a condition over `g` (issues) and `r` (rules) plus its
 * arguments. Rules only ever add assignments (reference §3.2), so a pass over the issues an import just
 * touched is equivalent to re-applying every rule to every issue.
 */
export interface RuleTarget {
  readonly where: string
  readonly args: readonly SqlValue[]
}

export const RULE_TARGETS = {
  /** Every rule over every issue. */
  all: (): RuleTarget => ({ where: '1 = 1', args: [] }),
  /** One tag's rule over every issue (tag create and update). */
  tag: (tagId: number): RuleTarget => ({ where: 'r.tag_id = ?', args: [tagId] }),
  /** Every rule over one issue, found by fingerprint (a manual issue being created). */
  fingerprint: (fingerprint: string): RuleTarget => ({ where: 'g.fingerprint = ?', args: [fingerprint] }),
}

/**
 * The rule pass as one statement (seed §2 "Tag rule"): for every enabled rule, attach its tag with source
 * `rule` to every issue whose title, sample message or exception class contains the word,
 * case-insensitively. Existing assignments — manual ones included — are left as they are.
 */
export function applyTagRules(scope: AppScope, target: RuleTarget, now: string): Statement {
  const { t, db } = scope
  const d = db.dialect
  const matches = ['g.title', 'g.sample_message', 'g.exception_class'].map((column) => d.containsCi(column, 'r.match_word'))
  const source = `SELECT g.id, r.tag_id, 'rule', ? FROM ${t.groups} g JOIN ${t.tagRules} r ON r.enabled = 1
    WHERE (${target.where}) AND (${matches.join(' OR ')})`
  return {
    sql: d.insertIgnore(t.groupTags, ['group_id', 'tag_id', 'source', 'created_at'], source, ['group_id', 'tag_id']),
    args: [now, ...target.args],
  }
}
