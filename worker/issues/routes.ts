import { AssignIssueInputSchema, BulkIssuesInputSchema, ISSUE_MESSAGES, IssueStatusInputSchema, ManualIssueInputSchema, MergeIssuesInputSchema } from '../../shared/schemas/issue.ts'
import { toPositiveInteger } from '../../shared/schemas/fields.ts'
import type { ErrorDetail, GroupDetail, GroupsPage, IssuesPage } from '../../shared/api.ts'
import { LOCAL_ACTOR } from '../actor.ts'
import type { Deps } from '../deps.ts'
import { InvalidInputError } from '../errors.ts'
import { queryBoolean, queryInteger, queryString } from '../http/query.ts'
import { readJson } from '../http/read-body.ts'
import { created, json } from '../http/respond.ts'
import { route, type ApiRequest, type ApiRouter } from '../http/router.ts'
import { scopeOf, withApp } from '../http/with-app.ts'
import { toTimestamp } from '../time.ts'
import { assignIssue } from './assign-issue.ts'
import { bulkUpdateIssues } from './bulk-issues.ts'
import { createManualIssue } from './create-issue.ts'
import { getIssueDetail, type IssueDetail } from './issue-detail.ts'
import { readIssueSearch } from './issue-search.ts'
import { changeIssueStatus, normalizeNote } from './issue-status.ts'
import { searchIssues } from './list-issues.ts'
import { mergeIssues } from './merge-issues.ts'
import { registerIssuePageRoutes } from './issue-page-routes.ts'

/** The issue workflow endpoints (reference §3.1). */
export function registerIssueRoutes(router: ApiRouter): void {
  for (const path of ['/errors', '/issues']) route(router, path, { GET: listIssues, POST: createIssue }, [withApp])
  route(router, '/groups', { GET: listGroups }, [withApp])
  route(router, '/error', { GET: (request, deps) => showIssue(request, deps, 'data', 100) }, [withApp])
  route(router, '/group', { GET: (request, deps) => showIssue(request, deps, 'group', 500) }, [withApp])
  route(router, '/issue-status', { POST: updateIssueStatus }, [withApp])
  route(router, '/bulk-issues', { POST: bulkIssues }, [withApp])
  route(router, '/merge-issues', { POST: merge }, [withApp])
  route(router, '/assign-issue', { POST: assign }, [withApp])
  registerIssuePageRoutes(router)
  route(router, '/assignable-users', { GET: (_request, deps) => json({ data: deps.config.assignableUsers }) }, [withApp])
}

/** `GET ?api=errors|issues`: `{data, meta}`, newest first by default. */
async function listIssues(request: ApiRequest, deps: Deps) {
  const search = readIssueSearch(request.query, deps.config, { sort: 'newest', samples: false })
  const page = await searchIssues(scopeOf(request), search, deps.now())
  return json({
    data: page.items,
    meta: {
      total: page.total,
      page: search.page,
      limit: search.limit,
      pages: page.pages,
      sort: search.sort,
      include_stack: search.includeStack,
      include_context: search.includeContext,
      skip_vendor: search.skipVendor,
    },
  } satisfies IssuesPage)
}

/** `GET ?api=groups` (the dashboard's list): `{items, meta}`, most occurrences first, samples always included. */
async function listGroups(request: ApiRequest, deps: Deps) {
  const search = readIssueSearch(request.query, deps.config, { sort: 'occurrences', samples: true })
  const page = await searchIssues(scopeOf(request), search, deps.now())
  return json({ items: page.items, meta: { total: page.total, page: search.page, limit: search.limit, pages: page.pages } } satisfies GroupsPage)
}

async function createIssue(request: ApiRequest, deps: Deps) {
  const input = await readJson(request, ManualIssueInputSchema, deps.config.maxBodyBytes)
  return created(presentDetail(await createManualIssue(scopeOf(request), input, LOCAL_ACTOR, toTimestamp(deps.now())), 'data'))
}

/** `GET ?api=error|group&id=` — `limit` defaults to 100 (`error`) or 500 (`group`), at most 500. */
async function showIssue(request: ApiRequest, deps: Deps, key: 'data' | 'group', defaultLimit: number) {
  const id = toPositiveInteger(queryString(request.query, 'id'))
  if (id === null) throw new InvalidInputError(ISSUE_MESSAGES.issueId)
  const detail = await getIssueDetail(scopeOf(request), id, {
    page: queryInteger(request.query, 'page', { min: 1, max: 1_000_000, fallback: 1 }),
    limit: queryInteger(request.query, 'limit', { min: 1, max: 500, fallback: defaultLimit }),
    includeContext: queryBoolean(request.query, 'include_context', true),
    skipVendor: queryBoolean(request.query, 'skip_vendor', false),
  })
  return json(presentDetail(detail, key))
}

function presentDetail(detail: IssueDetail, key: 'data' | 'group'): ErrorDetail | GroupDetail {
  const { issue, ...sections } = detail
  return key === 'data' ? { data: issue, ...sections } : { group: issue, ...sections }
}

async function updateIssueStatus(request: ApiRequest, deps: Deps) {
  const input = await readJson(request, IssueStatusInputSchema, deps.config.maxBodyBytes)
  const change = { id: input.id, status: input.status, note: normalizeNote(input.note) }
  return json(await changeIssueStatus(scopeOf(request), change, LOCAL_ACTOR, deps.now(), deps.plugins, deps))
}

async function bulkIssues(request: ApiRequest, deps: Deps) {
  const input = await readJson(request, BulkIssuesInputSchema, deps.config.maxBodyBytes)
  return json(await bulkUpdateIssues(scopeOf(request), input, LOCAL_ACTOR, toTimestamp(deps.now())))
}

async function assign(request: ApiRequest, deps: Deps) {
  const input = await readJson(request, AssignIssueInputSchema, deps.config.maxBodyBytes)
  const raw = input.assigned_to_id
  const assignedToId = raw === undefined || raw === null || String(raw).trim() === '' ? null : String(raw).trim()
  return json(await assignIssue(scopeOf(request), { id: input.id, assignedToId }, deps.config.assignableUsers))
}

async function merge(request: ApiRequest, deps: Deps) {
  const input = await readJson(request, MergeIssuesInputSchema, deps.config.maxBodyBytes)
  return json(await mergeIssues(scopeOf(request), input, LOCAL_ACTOR, toTimestamp(deps.now())))
}
