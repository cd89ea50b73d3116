import type { IncomingMessage, ServerResponse } from 'node:http'
import { randomUUID } from 'node:crypto'
import { readBody, sendJson as send, startLocalServer } from './local-http.ts'

/**
 * A local stand-in for Linear's GraphQL API (https://api.linear.app/graphql), for the tracker tests (issue 16).
 * It answers exactly the operations Loupe sends (worker/plugins/tracker/linear.ts: Viewer, Issues, IssueStates,
 * IssueUpdate, CommentCreate, Teams, IssueCreate) with Linear's shapes: connections with `nodes` and
 * `pageInfo { hasNextPage endCursor }`, ISO times, priorities 0–4, workflow states typed backlog / unstarted /
 * started / completed / canceled. Like Linear:
 * - the API key comes as `Authorization: <key>` (no Bearer); a missing or unknown key is HTTP 401 with an
 *   `AUTHENTICATION_ERROR` GraphQL error;
 * - every answer carries `X-RateLimit-Requests-Limit/-Remaining/-Reset` (reset in epoch milliseconds); past the
 *   budget the answer is HTTP 400 with a `RATELIMITED` error;
 * - an operation it does not know is a GraphQL validation error (HTTP 400).
 * Each test makes its own workspace through `/control/…` (never part of Linear's API): `POST /control/workspaces`
 * seeds one and answers its API key; `POST /control/<key>/issues` adds or changes issues (bumping `updatedAt`);
 * `POST /control/<key>/rate-limit {remaining}` sets the budget; `GET /control/<key>` returns the workspace.
 */
export interface LinearServer {
  readonly url: string
  close(): Promise<void>
}

interface State {
  id: string
  name: string
  type: string
  position: number
}

interface Team {
  id: string
  key: string
  name: string
  states: State[]
  next: number
}

interface User {
  id: string
  name: string
  email: string
}

interface Issue {
  id: string
  identifier: string
  title: string
  description: string | null
  priority: number
  createdAt: string
  updatedAt: string
  teamId: string
  stateId: string
  assigneeId: string | null
  labels: { name: string; color: string }[]
  comments: string[]
}

interface Workspace {
  viewer: User
  users: User[]
  teams: Team[]
  issues: Issue[]
  limit: number
  remaining: number
  clock: number
}

const STATES: [string, string][] = [['Backlog', 'backlog'], ['Todo', 'unstarted'], ['In Progress', 'started'], ['Done', 'completed'], ['Canceled', 'canceled']]
const LIMIT = 1500

export async function startLinearServer(): Promise<LinearServer> {
  const workspaces = new Map<string, Workspace>()
  return startLocalServer((request, response) => handle(request, response, workspaces), (error) => ({ errors: [{ message: String(error) }] }))
}

async function handle(request: IncomingMessage, response: ServerResponse, workspaces: Map<string, Workspace>): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://linear')
  const body = await readBody(request)
  const parts = url.pathname.split('/').filter(Boolean)
  if (parts[0] === 'control') return control(parts.slice(1), request.method ?? 'GET', body, response, workspaces)
  if (url.pathname !== '/graphql' || request.method !== 'POST') return send(response, 404, { errors: [{ message: 'Not found' }] })
  const key = request.headers.authorization ?? ''
  const workspace = workspaces.get(key)
  if (!workspace) {
    return send(response, 401, {
      errors: [{ message: 'Authentication required, not authenticated', extensions: { type: 'authentication error', code: 'AUTHENTICATION_ERROR', statusCode: 401, userPresentableMessage: 'You need to authenticate to access this operation.' } }],
    })
  }
  const reset = Date.now() + 3_600_000
  const headers = () => ({ 'x-ratelimit-requests-limit': String(workspace.limit), 'x-ratelimit-requests-remaining': String(Math.max(0, workspace.remaining)), 'x-ratelimit-requests-reset': String(reset) })
  if (workspace.remaining <= 0) {
    return send(response, 400, { errors: [{ message: 'Rate limit exceeded', extensions: { type: 'ratelimited', code: 'RATELIMITED', statusCode: 429, userPresentableMessage: 'Too many requests.' } }] }, headers())
  }
  workspace.remaining--
  let payload: { query?: unknown; variables?: Record<string, unknown> }
  try {
    payload = JSON.parse(body) as typeof payload
  } catch {
    return send(response, 400, { errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }] }, headers())
  }
  const operation = typeof payload.query === 'string' ? /^\s*(query|mutation)\s+(\w+)/.exec(payload.query)?.[2] : undefined
  const variables = payload.variables ?? {}
  const resolver = operation ? OPERATIONS[operation] : undefined
  if (!resolver) {
    return send(response, 400, { errors: [{ message: `Unknown operation ${operation ?? ''}`.trim(), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] }, headers())
  }
  try {
    send(response, 200, { data: resolver(workspace, variables) }, headers())
  } catch (error) {
    send(response, 200, { data: null, errors: [{ message: error instanceof Error ? error.message : String(error), extensions: { code: 'INVALID_INPUT', type: 'invalid input' } }] }, headers())
  }
}

type Resolver = (workspace: Workspace, variables: Record<string, unknown>) => unknown

const OPERATIONS: Record<string, Resolver> = {
  Viewer: (w) => ({ viewer: w.viewer }),
  Issues: (w, v) => {
    const first = typeof v.first === 'number' ? Math.min(250, Math.max(1, v.first)) : 50
    const matching = w.issues.filter((issue) => matches(w, issue, (v.filter ?? {}) as Filter)).sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id.localeCompare(b.id)))
    let start = 0
    if (typeof v.after === 'string') {
      const index = matching.findIndex((issue) => issue.id === v.after)
      if (index < 0) throw new Error('Cursor not found')
      start = index + 1
    }
    const nodes = matching.slice(start, start + first)
    return { issues: { nodes: nodes.map((issue) => issueView(w, issue)), pageInfo: { hasNextPage: start + first < matching.length, endCursor: nodes.at(-1)?.id ?? null } } }
  },
  IssueStates: (w, v) => {
    const issue = find(w, v.id)
    if (!issue) return { issue: null }
    const team = w.teams.find((t) => t.id === issue.teamId)!
    return { issue: { id: issue.id, team: { states: { nodes: team.states } } } }
  },
  IssueUpdate: (w, v) => {
    const issue = find(w, v.id)
    if (!issue) throw new Error('Entity not found: Issue')
    const team = w.teams.find((t) => t.id === issue.teamId)!
    if (!team.states.some((state) => state.id === v.stateId)) throw new Error('Argument Validation Error: stateId must belong to the issue team')
    issue.stateId = String(v.stateId)
    issue.updatedAt = tick(w)
    const state = team.states.find((s) => s.id === issue.stateId)!
    return { issueUpdate: { success: true, issue: { id: issue.id, state: { name: state.name, type: state.type } } } }
  },
  CommentCreate: (w, v) => {
    const issue = find(w, v.issueId)
    if (!issue) throw new Error('Entity not found: Issue')
    issue.comments.push(String(v.body))
    return { commentCreate: { success: true } }
  },
  Teams: (w, v) => ({ teams: { nodes: w.teams.filter((team) => team.key === v.key).map((team) => ({ id: team.id, key: team.key })) } }),
  IssueCreate: (w, v) => {
    const team = w.teams.find((t) => t.id === v.teamId)
    if (!team) throw new Error('Entity not found: Team')
    if (typeof v.title !== 'string' || v.title === '') throw new Error('Argument Validation Error: title should not be empty')
    const at = tick(w)
    const issue: Issue = {
      id: randomUUID(),
      identifier: `${team.key}-${team.next++}`,
      title: v.title,
      description: typeof v.description === 'string' ? v.description : null,
      priority: 0,
      createdAt: at,
      updatedAt: at,
      teamId: team.id,
      stateId: team.states.find((state) => state.type === 'unstarted')!.id,
      assigneeId: null,
      labels: [],
      comments: [],
    }
    w.issues.push(issue)
    return { issueCreate: { success: true, issue: issueView(w, issue) } }
  },
}

interface Filter {
  and?: Filter[]
  or?: Filter[]
  labels?: { some?: { name?: { in?: string[] } } }
  assignee?: { isMe?: { eq?: boolean }; email?: { in?: string[] }; id?: { in?: string[] } }
  team?: { key?: { eq?: string } }
  updatedAt?: { gt?: string }
}

const FILTER_KEYS = new Set(['and', 'or', 'labels', 'assignee', 'team', 'updatedAt'])

/** The part of Linear's IssueFilter Loupe uses; any other field is refused as Linear refuses unknown input fields. */
function matches(w: Workspace, issue: Issue, filter: Filter): boolean {
  for (const key of Object.keys(filter)) if (!FILTER_KEYS.has(key)) throw new Error(`Field "${key}" is not defined by type "IssueFilter".`)
  if (filter.and && !filter.and.every((part) => matches(w, issue, part))) return false
  if (filter.or && filter.or.length && !filter.or.some((part) => matches(w, issue, part))) return false
  const names = filter.labels?.some?.name?.in
  if (names && !issue.labels.some((label) => names.includes(label.name))) return false
  const assignee = w.users.find((user) => user.id === issue.assigneeId) ?? null
  if (filter.assignee?.isMe?.eq !== undefined && (assignee?.id === w.viewer.id) !== filter.assignee.isMe.eq) return false
  if (filter.assignee?.email?.in && !(assignee && filter.assignee.email.in.includes(assignee.email))) return false
  if (filter.assignee?.id?.in && !(assignee && filter.assignee.id.in.includes(assignee.id))) return false
  const team = w.teams.find((t) => t.id === issue.teamId)!
  if (filter.team?.key?.eq !== undefined && team.key !== filter.team.key.eq) return false
  if (filter.updatedAt?.gt !== undefined && !(issue.updatedAt > new Date(filter.updatedAt.gt).toISOString())) return false
  return true
}

function issueView(w: Workspace, issue: Issue) {
  const team = w.teams.find((t) => t.id === issue.teamId)!
  const state = team.states.find((s) => s.id === issue.stateId)!
  const assignee = w.users.find((user) => user.id === issue.assigneeId) ?? null
  const slug = issue.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60)
  return {
    id: issue.id,
    identifier: issue.identifier,
    title: issue.title,
    description: issue.description,
    url: `https://linear.app/loupe-test/issue/${issue.identifier}/${slug}`,
    priority: issue.priority,
    createdAt: issue.createdAt,
    updatedAt: issue.updatedAt,
    state: { name: state.name, type: state.type },
    team: { key: team.key },
    assignee: assignee ? { name: assignee.name, email: assignee.email } : null,
    labels: { nodes: issue.labels },
  }
}

function find(w: Workspace, id: unknown): Issue | undefined {
  return w.issues.find((issue) => issue.id === id || issue.identifier === id)
}

/** A strictly increasing clock per workspace, so every change has a later `updatedAt` than the last. */
function tick(w: Workspace): string {
  w.clock = Math.max(w.clock + 1000, Date.now())
  return new Date(w.clock).toISOString()
}

interface IssueSeed {
  id?: string
  identifier?: string
  title?: string
  description?: string | null
  priority?: number
  team?: string
  state?: string
  assignee?: string | null
  labels?: { name: string; color: string }[]
}

function control(parts: string[], method: string, body: string, response: ServerResponse, workspaces: Map<string, Workspace>): void {
  const input = body ? (JSON.parse(body) as Record<string, unknown>) : {}
  if (parts[0] === 'workspaces' && method === 'POST') {
    const key = `lin_api_${randomUUID().replaceAll('-', '')}`
    const viewer: User = { id: randomUUID(), name: 'Test Viewer', email: 'viewer@example.com' }
    const users: User[] = [viewer, ...((input.users as Omit<User, 'id'>[] | undefined) ?? []).map((user) => ({ id: randomUUID(), ...user }))]
    const teams: Team[] = ((input.teams as string[] | undefined) ?? ['ENG']).map((teamKey) => ({
      id: randomUUID(),
      key: teamKey,
      name: `Team ${teamKey}`,
      states: STATES.map(([name, type], position) => ({ id: randomUUID(), name, type, position })),
      next: 1,
    }))
    const workspace: Workspace = { viewer, users, teams, issues: [], limit: LIMIT, remaining: LIMIT, clock: Date.parse('2026-01-01T00:00:00.000Z') }
    for (const seed of (input.issues as IssueSeed[] | undefined) ?? []) upsertIssue(workspace, seed)
    workspaces.set(key, workspace)
    return send(response, 201, { api_key: key })
  }
  const workspace = workspaces.get(parts[0] ?? '')
  if (!workspace) return send(response, 404, { error: 'no such workspace' })
  if (parts[1] === 'issues' && method === 'POST') {
    const issues = ((input.issues as IssueSeed[] | undefined) ?? []).map((seed) => issueView(workspace, upsertIssue(workspace, seed)))
    return send(response, 200, { issues })
  }
  if (parts[1] === 'rate-limit' && method === 'POST') {
    workspace.remaining = Number(input.remaining)
    return send(response, 200, { remaining: workspace.remaining })
  }
  if (parts.length === 1 && method === 'GET') {
    return send(response, 200, {
      viewer: workspace.viewer,
      issues: workspace.issues.map((issue) => ({ ...issueView(workspace, issue), comments: issue.comments })),
    })
  }
  send(response, 404, { error: 'unknown control call' })
}

/** Adds an issue, or changes the one with the same id or identifier; either way its `updatedAt` moves on. */
function upsertIssue(w: Workspace, seed: IssueSeed): Issue {
  const existing = seed.id || seed.identifier ? find(w, seed.id ?? seed.identifier) : undefined
  const team = w.teams.find((t) => t.key === (seed.team ?? w.teams[0]!.key)) ?? w.teams[0]!
  const state = (seed.state && team.states.find((s) => s.name === seed.state || s.type === seed.state)) || null
  const assignee = seed.assignee === undefined ? undefined : seed.assignee === null ? null : (w.users.find((user) => user.email === seed.assignee)?.id ?? null)
  const at = tick(w)
  if (existing) {
    if (seed.title !== undefined) existing.title = seed.title
    if (seed.description !== undefined) existing.description = seed.description
    if (seed.priority !== undefined) existing.priority = seed.priority
    if (state) existing.stateId = state.id
    if (assignee !== undefined) existing.assigneeId = assignee
    if (seed.labels) existing.labels = seed.labels
    existing.updatedAt = at
    return existing
  }
  const issue: Issue = {
    id: seed.id ?? randomUUID(),
    identifier: seed.identifier ?? `${team.key}-${team.next++}`,
    title: seed.title ?? 'Untitled',
    description: seed.description ?? null,
    priority: seed.priority ?? 0,
    createdAt: at,
    updatedAt: at,
    teamId: team.id,
    stateId: (state ?? team.states.find((s) => s.type === 'unstarted')!).id,
    assigneeId: assignee ?? null,
    labels: seed.labels ?? [],
    comments: [],
  }
  w.issues.push(issue)
  return issue
}
