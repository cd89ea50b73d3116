import type { IssueValues, ValueBreakdown, ValueCount } from '../../shared/issue-page.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { readRow } from '../../drivers/read-row.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { OTHER_VALUE, VALUE_NAMES, VALUES_PER_NAME } from '../digest/issue-value-rollup.ts'
import { NotFoundError } from '../errors.ts'
import { ISSUE_NOT_FOUND } from './issue-messages.ts'

export const VALUES_TOP_DEFAULT = 10
export const VALUES_TOP_MAX = 100

/**
 * `GET ?api=issue-values&id=<issue>&top=N`: the issue's value breakdown (url, user, ip, environment, release,
 * server — Sentry's tag distribution), read from the digest-time rollup (migration 0014), never from the
 * occurrences: its size is bounded by the rollup's cap whatever the issue's occurrence count (issue 18). One
 * round trip: the issue's existence and its rows in one read batch. Per key the `top` most frequent values,
 * the rest folded into `(other)`; keys no event carried are left out.
 */
export async function getIssueValues(scope: AppScope, id: number, top: number): Promise<IssueValues> {
  const { t } = scope
  const { issue, values } = await namedBatch(
    scope.db,
    {
      issue: { sql: `SELECT id FROM ${t.groups} WHERE id = ?`, args: [id] },
      values: { sql: `SELECT name, value, count FROM ${t.issueValues} WHERE group_id = ?`, args: [id] },
    },
    { mode: 'read' },
  )
  if (issue.rows.length === 0) throw new NotFoundError(ISSUE_NOT_FOUND)
  const byName = new Map<string, ValueCount[]>()
  for (const raw of values.rows) {
    const row = readRow(raw, { name: 'string', value: 'string', count: 'number' }, 'issue value')
    let list = byName.get(row.name)
    if (list === undefined) byName.set(row.name, (list = []))
    list.push({ value: row.value, count: row.count })
  }
  const data: ValueBreakdown[] = []
  for (const name of VALUE_NAMES) {
    const list = byName.get(name)
    if (list) data.push(breakdown(name, list, top))
  }
  return { data, meta: { id, top, cap: VALUES_PER_NAME } }
}

/** Most frequent first (ties by value), `(other)` last holding everything past `top`. */
function breakdown(name: string, list: ValueCount[], top: number): ValueBreakdown {
  let other = 0
  const named: ValueCount[] = []
  for (const entry of list) {
    if (entry.value === OTHER_VALUE) other += entry.count
    else named.push(entry)
  }
  named.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
  for (const entry of named.slice(top)) other += entry.count
  const values = named.slice(0, top)
  const total = values.reduce((sum, entry) => sum + entry.count, other)
  return { name, total, values: other > 0 ? [...values, { value: OTHER_VALUE, count: other }] : values }
}
