import type { IssueStatus, Severity } from '../../../shared/constants.ts'
import { OperationalError } from '../../errors.ts'
import { hmacHex, trackerRateLimited, trackerRequest } from './tracker-http.ts'
import type { ExternalIssue, Tracker, TrackerClient, TrackerFilters } from './tracker.ts'

/**
 * Linear (reference §4.5): GraphQL at `https://api.linear.app/graphql` with `Authorization: <API key>`. The
 * queries below are the whole of what Loupe asks; tools/servers/linear-server.ts answers exactly these.
 */
const NAME = 'Linear'

/** The fields of an issue every query reads. */
const ISSUE_FIELDS = `id identifier title description url priority createdAt updatedAt
  state { name type } team { key } assignee { name email } labels { nodes { name color } }`

export const LINEAR_QUERIES = {
  viewer: `query Viewer { viewer { id name email } }`,
  issues: `query Issues($filter: IssueFilter, $first: Int, $after: String) {
  issues(filter: $filter, first: $first, after: $after, orderBy: updatedAt) {
    nodes { ${ISSUE_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`,
  issueStates: `query IssueStates($id: String!) { issue(id: $id) { id team { states { nodes { id name type position } } } } }`,
  issueUpdate: `mutation IssueUpdate($id: String!, $stateId: String!) { issueUpdate(id: $id, input: { stateId: $stateId }) { success issue { id state { name type } } } }`,
  commentCreate: `mutation CommentCreate($issueId: String!, $body: String!) { commentCreate(input: { issueId: $issueId, body: $body }) { success } }`,
  teams: `query Teams($key: String!) { teams(filter: { key: { eq: $key } }) { nodes { id key } } }`,
  issueCreate: `mutation IssueCreate($teamId: String!, $title: String!, $description: String) {
  issueCreate(input: { teamId: $teamId, title: $title, description: $description }) { success issue { ${ISSUE_FIELDS} } }
}`,
} as const

/** Linear priority (0 none, 1 urgent … 4 low) → severity (reference §4.5). */
const PRIORITY_SEVERITY: Readonly<Record<number, Severity>> = { 1: 'CRITICAL', 2: 'ERROR', 3: 'WARNING', 4: 'NOTICE' }

/** Workflow state type → status (reference §4.5); `backlog`, `unstarted`, `triage` are open. */
const STATE_STATUS: Readonly<Record<string, IssueStatus>> = { started: 'in_progress', completed: 'fixed', canceled: 'wont_fix' }

/**
 * Status → the state type written back (reference §4.5: fixed → completed, wont_fix → canceled, in_progress →
 * started). Loupe also moves open and reoccurred issues back to `unstarted` (docs/deviations.md).
 */
const STATUS_STATE: Readonly<Record<IssueStatus, string>> = { fixed: 'completed', wont_fix: 'canceled', in_progress: 'started', open: 'unstarted', reoccurred: 'unstarted' }

export const linearTracker: Tracker = {
  provider: 'linear',
  name: NAME,
  defaultBaseUrl: 'https://api.linear.app/graphql',
  signatureHeader: 'Linear-Signature',

  missingFilter(filters) {
    const any = filters.labels.length > 0 || filters.assignedToMe || filters.assignees.length > 0 || filters.teamKey !== null
    return any ? null : 'Configure at least one Linear filter (labels, assigned to me, assignees or a team key): a workspace is never pulled wholesale.'
  },

  missingPushTarget(filters) {
    return filters.teamKey ? null : 'Set a Linear team key before creating Linear issues.'
  },

  async viewer(client) {
    const data = await graphql<{ viewer: { id: string; name: string; email: string | null } }>(client, LINEAR_QUERIES.viewer, {})
    return { id: data.viewer.id, name: data.viewer.name, email: data.viewer.email ?? null }
  },

  async listIssues(client, filters, page) {
    const data = await graphql<{ issues: { nodes: LinearIssue[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }>(client, LINEAR_QUERIES.issues, {
      filter: issueFilter(filters, page.updatedAfter),
      first: page.pageSize,
      after: page.cursor,
    })
    const { nodes, pageInfo } = data.issues
    return { issues: nodes.map(toExternal), next: pageInfo.hasNextPage && pageInfo.endCursor ? pageInfo.endCursor : null }
  },

  async setStatus(client, externalId, status, comment) {
    const wanted = STATUS_STATE[status]
    const data = await graphql<{ issue: { team: { states: { nodes: { id: string; name: string; type: string; position: number }[] } } } | null }>(client, LINEAR_QUERIES.issueStates, { id: externalId })
    if (!data.issue) throw new OperationalError(`${NAME} issue ${externalId} no longer exists.`)
    // The first state of the type, in the team's own order (reference §4.5).
    const state = [...data.issue.team.states.nodes].sort((a, b) => a.position - b.position).find((candidate) => candidate.type === wanted)
    if (!state) return null
    if (comment !== null) await graphql(client, LINEAR_QUERIES.commentCreate, { issueId: externalId, body: comment })
    const updated = await graphql<{ issueUpdate: { success: boolean; issue: { state: { name: string } } } }>(client, LINEAR_QUERIES.issueUpdate, { id: externalId, stateId: state.id })
    if (!updated.issueUpdate.success) throw new OperationalError(`${NAME} did not update issue ${externalId}.`)
    return { state: updated.issueUpdate.issue.state.name }
  },

  async createIssue(client, filters, draft) {
    const teams = await graphql<{ teams: { nodes: { id: string; key: string }[] } }>(client, LINEAR_QUERIES.teams, { key: filters.teamKey ?? '' })
    const team = teams.teams.nodes[0]
    if (!team) throw new OperationalError(`${NAME} has no team with the key ${filters.teamKey}.`)
    const created = await graphql<{ issueCreate: { success: boolean; issue: LinearIssue | null } }>(client, LINEAR_QUERIES.issueCreate, { teamId: team.id, title: draft.title, description: draft.body })
    if (!created.issueCreate.success || !created.issueCreate.issue) throw new OperationalError(`${NAME} did not create the issue.`)
    return toExternal(created.issueCreate.issue)
  },

  async expectedSignature(secret, rawBody) {
    return hmacHex(secret, rawBody)
  },
}

interface LinearIssue {
  id: string
  identifier: string
  title: string
  description: string | null
  url: string
  priority: number
  createdAt: string
  updatedAt: string
  state: { name: string; type: string }
  team: { key: string } | null
  assignee: { name: string; email: string | null } | null
  labels: { nodes: { name: string; color: string | null }[] }
}

/** (labels OR assignee is me / email in / id in) AND team key AND updatedAt > floor (reference §4.5). */
export function issueFilter(filters: TrackerFilters, updatedAfter: string | null): Record<string, unknown> {
  const either: Record<string, unknown>[] = []
  if (filters.labels.length) either.push({ labels: { some: { name: { in: filters.labels } } } })
  if (filters.assignedToMe) either.push({ assignee: { isMe: { eq: true } } })
  const emails = filters.assignees.filter((value) => value.includes('@'))
  const ids = filters.assignees.filter((value) => !value.includes('@'))
  if (emails.length) either.push({ assignee: { email: { in: emails } } })
  if (ids.length) either.push({ assignee: { id: { in: ids } } })
  const all: Record<string, unknown>[] = []
  if (either.length) all.push({ or: either })
  if (filters.teamKey) all.push({ team: { key: { eq: filters.teamKey } } })
  if (updatedAfter) all.push({ updatedAt: { gt: updatedAfter } })
  return { and: all }
}

function toExternal(issue: LinearIssue): ExternalIssue {
  const assignee = issue.assignee ? issue.assignee.name || issue.assignee.email : null
  const team = issue.team?.key ?? null
  return {
    id: issue.id,
    identifier: issue.identifier,
    title: issue.title,
    description: issue.description,
    url: issue.url,
    severity: PRIORITY_SEVERITY[issue.priority] ?? 'INFO',
    status: STATE_STATUS[issue.state.type] ?? 'open',
    state: issue.state.name,
    labels: issue.labels.nodes.map((label) => ({ name: label.name, color: label.color })),
    assignee,
    container: team,
    createdAt: issue.createdAt,
    updatedAt: issue.updatedAt,
    context: { origin: 'linear', identifier: issue.identifier, state: issue.state.name, priority: issue.priority, team, assignee, url: issue.url },
  }
}

interface GraphqlError {
  message?: string
  extensions?: { code?: string; type?: string }
}

/**
 * One GraphQL call. HTTP 401 or an AUTHENTICATION_ERROR is a rejected key; Linear reports rate limiting as
 * HTTP 400 with the error code RATELIMITED and `X-RateLimit-Requests-Reset` (epoch milliseconds) — a 429 here
 * with Retry-After. Other GraphQL errors are 400 `Linear API error: …` (reference §4.5's three messages).
 */
async function graphql<T>(client: TrackerClient, query: string, variables: Record<string, unknown>): Promise<T> {
  const answer = await trackerRequest(NAME, client, client.baseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: client.apiKey, 'user-agent': 'Loupe-Tracker/1' },
    body: JSON.stringify({ query, variables }),
  })
  const body = (answer.body ?? {}) as { data?: T | null; errors?: GraphqlError[] }
  const errors = Array.isArray(body.errors) ? body.errors : []
  const codes = errors.map((error) => error.extensions?.code)
  if (answer.status === 401 || codes.includes('AUTHENTICATION_ERROR')) throw new OperationalError(`${NAME} rejected the API key (HTTP 401).`)
  if (codes.includes('RATELIMITED') || answer.status === 429) {
    const reset = Number(answer.headers.get('x-ratelimit-requests-reset'))
    throw trackerRateLimited(NAME, Number.isFinite(reset) && reset > 0 ? reset : null, null)
  }
  if (errors.length) throw new OperationalError(`${NAME} API error: ${String(errors[0]!.message ?? 'unknown error').slice(0, 300)}`)
  if (answer.status < 200 || answer.status >= 300 || !body.data) throw new OperationalError(`${NAME} API error: HTTP ${answer.status}.`)
  return body.data
}
