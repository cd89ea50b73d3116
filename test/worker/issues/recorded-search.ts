import type { Statement } from '../../../drivers/driver.ts'
import { wrapDriver } from '../../../drivers/wrap-driver.ts'
import type { IssueFilters, IssueSort } from '../../../worker/issues/issue-search.ts'
import { searchIssues, type IssuePage } from '../../../worker/issues/list-issues.ts'
import type { MigratedScope } from '../digest/persist/migrated-scope.ts'

/** The clock of the issue-list tests: the 14-day trend window ends here. */
const NOW = new Date('2026-10-20T00:00:00Z')

/** One `searchIssues` call on a migrated scope: its page, the statements it sent and its round trips. */
export async function recordedSearch(m: MigratedScope, filters: IssueFilters, sort: IssueSort, paging = { page: 1, limit: 50 }): Promise<{ page: IssuePage; statements: Statement[]; roundTrips: number }> {
  const statements: Statement[] = []
  const db = wrapDriver(m.scope.db, (call, proceed) => {
    statements.push(...call.statements)
    return proceed()
  })
  const before = m.opened.roundTrips()
  const page = await searchIssues({ ...m.scope, db }, { ...paging, sort, includeStack: false, includeContext: false, skipVendor: false, filters }, NOW)
  return { page, statements, roundTrips: m.opened.roundTrips() - before }
}
