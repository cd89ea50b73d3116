import type { IncomingMessage, ServerResponse } from 'node:http'
import { randomUUID } from 'node:crypto'
import { readBody, sendJson as send, startLocalServer } from './local-http.ts'

/**
 * A local stand-in for GitHub's REST API (https://api.github.com) for the tracker tests (issue 16): the calls
 * worker/plugins/tracker/github.ts makes — `GET /user`, `GET /repos/{owner}/{repo}/issues` (state, labels,
 * since, sort, direction, per_page, page), `POST /repos/{owner}/{repo}/issues`, `PATCH …/issues/{number}`,
 * `POST …/issues/{number}/comments` — with GitHub's shapes and manners:
 * - `Authorization: Bearer <token>` (or `token <token>`); a missing or unknown token is 401
 *   `{"message":"Bad credentials",…}`; a repository the token cannot see is 404 `{"message":"Not Found",…}`;
 * - pages through `Link: <…?page=2…>; rel="next", <…>; rel="last"`; issues and pull requests share the list;
 * - every answer carries `x-ratelimit-limit/-remaining/-used/-reset` (reset in epoch seconds) and
 *   `x-ratelimit-resource: core`; past the budget it is 403 "API rate limit exceeded…" with remaining 0 (the
 *   primary limit), or — when the test asks for the secondary limit — 429 with `retry-after`.
 * Each test makes its own token and repository through `/control/…` (never part of GitHub's API):
 * `POST /control/tokens {repo, issues}` answers `{token}`; `POST /control/<token>/issues` adds or changes
 * issues; `POST /control/<token>/rate-limit {remaining, secondary?}`; `GET /control/<token>` the repository.
 */
export interface GithubServer {
  readonly url: string
  close(): Promise<void>
}

interface User {
  login: string
  id: number
  name: string
  email: string | null
}

interface Issue {
  id: number
  number: number
  title: string
  body: string | null
  state: 'open' | 'closed'
  state_reason: string | null
  labels: { name: string; color: string }[]
  assignees: string[]
  created_at: string
  updated_at: string
  pull_request: boolean
  comments: string[]
}

interface Repo {
  fullName: string
  viewer: User
  users: User[]
  issues: Issue[]
  next: number
  clock: number
  limit: number
  remaining: number
  secondary: boolean
}

let ids = 1000

export async function startGithubServer(): Promise<GithubServer> {
  const repos = new Map<string, Repo>()
  return startLocalServer((request, response) => handle(request, response, repos), (error) => ({ message: String(error) }))
}

const DOCS = 'https://docs.github.com/rest'

async function handle(request: IncomingMessage, response: ServerResponse, repos: Map<string, Repo>): Promise<void> {
  const base = `http://${request.headers.host}`
  const url = new URL(request.url ?? '/', base)
  const raw = await readBody(request)
  const parts = url.pathname.split('/').filter(Boolean)
  const method = request.method ?? 'GET'
  if (parts[0] === 'control') return control(parts.slice(1), method, raw, response, repos)
  const token = /^(?:Bearer|token)\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]
  const repo = token ? repos.get(token) : undefined
  if (!repo) return send(response, 401, { message: 'Bad credentials', documentation_url: DOCS, status: '401' })
  const reset = Math.ceil(Date.now() / 1000) + 3600
  const limits = () => ({
    'x-ratelimit-limit': String(repo.limit),
    'x-ratelimit-remaining': String(Math.max(0, repo.remaining)),
    'x-ratelimit-used': String(repo.limit - Math.max(0, repo.remaining)),
    'x-ratelimit-reset': String(reset),
    'x-ratelimit-resource': 'core',
  })
  if (repo.remaining <= 0) {
    if (repo.secondary) return send(response, 429, { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: DOCS }, { ...limits(), 'retry-after': '60' })
    return send(response, 403, { message: `API rate limit exceeded for user ID ${repo.viewer.id}.`, documentation_url: DOCS }, limits())
  }
  repo.remaining--
  const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {}
  if (method === 'GET' && url.pathname === '/user') return send(response, 200, { login: repo.viewer.login, id: repo.viewer.id, type: 'User', name: repo.viewer.name, email: repo.viewer.email }, limits())
  if (parts[0] !== 'repos' || `${parts[1]}/${parts[2]}` !== repo.fullName || parts[3] !== 'issues') return send(response, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' }, limits())
  const number = parts[4] === undefined ? null : Number(parts[4])
  if (number === null && method === 'GET') return list(repo, url, response, limits())
  if (number === null && method === 'POST') {
    if (typeof body.title !== 'string' || body.title === '') return send(response, 422, { message: 'Validation Failed', errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }], documentation_url: DOCS }, limits())
    const issue = addIssue(repo, { title: body.title, body: typeof body.body === 'string' ? body.body : null })
    return send(response, 201, view(repo, issue, base), limits())
  }
  const issue = repo.issues.find((candidate) => candidate.number === number)
  if (!issue) return send(response, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' }, limits())
  if (parts[5] === 'comments' && method === 'POST') {
    issue.comments.push(String(body.body))
    return send(response, 201, { id: ids++, body: body.body, user: { login: repo.viewer.login } }, limits())
  }
  if (parts[5] === undefined && method === 'PATCH') {
    if (body.state === 'open' || body.state === 'closed') issue.state = body.state
    issue.state_reason = typeof body.state_reason === 'string' ? body.state_reason : issue.state === 'closed' ? 'completed' : null
    issue.updated_at = tick(repo)
    return send(response, 200, view(repo, issue, base), limits())
  }
  send(response, 404, { message: 'Not Found', documentation_url: DOCS }, limits())
}

function list(repo: Repo, url: URL, response: ServerResponse, headers: Record<string, string>): void {
  const q = url.searchParams
  const state = q.get('state') ?? 'open'
  const labels = (q.get('labels') ?? '').split(',').map((label) => label.trim()).filter(Boolean)
  const since = q.get('since')
  const perPage = Math.min(100, Math.max(1, Number(q.get('per_page') ?? 30)))
  const page = Math.max(1, Number(q.get('page') ?? 1))
  const direction = q.get('direction') === 'asc' ? 1 : -1
  const sortKey = q.get('sort') === 'updated' ? 'updated_at' : 'created_at'
  const matching = repo.issues
    .filter((issue) => state === 'all' || issue.state === state)
    .filter((issue) => labels.every((name) => issue.labels.some((label) => label.name.toLowerCase() === name.toLowerCase())))
    .filter((issue) => !since || issue.updated_at >= new Date(since).toISOString().replace(/\.\d{3}Z$/, 'Z'))
    .sort((a, b) => (a[sortKey] < b[sortKey] ? -direction : a[sortKey] > b[sortKey] ? direction : a.number - b.number))
  const last = Math.max(1, Math.ceil(matching.length / perPage))
  const link = (n: number, rel: string) => {
    const target = new URL(url)
    target.searchParams.set('page', String(n))
    return `<${target.href}>; rel="${rel}"`
  }
  const links = []
  if (page > 1) links.push(link(page - 1, 'prev'), link(1, 'first'))
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'))
  const base = `${url.protocol}//${url.host}`
  send(response, 200, matching.slice((page - 1) * perPage, page * perPage).map((issue) => view(repo, issue, base)), { ...headers, ...(links.length ? { link: links.join(', ') } : {}) })
}

function view(repo: Repo, issue: Issue, base: string) {
  const users = (logins: string[]) => logins.map((login) => repo.users.find((user) => user.login === login)!).map((user) => ({ login: user.login, id: user.id, type: 'User' }))
  return {
    id: issue.id,
    node_id: `I_${issue.id}`,
    url: `${base}/repos/${repo.fullName}/issues/${issue.number}`,
    html_url: `https://github.com/${repo.fullName}/${issue.pull_request ? 'pull' : 'issues'}/${issue.number}`,
    number: issue.number,
    title: issue.title,
    body: issue.body,
    state: issue.state,
    state_reason: issue.state_reason,
    user: { login: repo.viewer.login, id: repo.viewer.id, type: 'User' },
    labels: issue.labels.map((label, index) => ({ id: index + 1, name: label.name, color: label.color, default: false })),
    assignee: users(issue.assignees)[0] ?? null,
    assignees: users(issue.assignees),
    comments: issue.comments.length,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.state === 'closed' ? issue.updated_at : null,
    ...(issue.pull_request ? { pull_request: { url: `${base}/repos/${repo.fullName}/pulls/${issue.number}` } } : {}),
  }
}

/** GitHub's times have whole seconds; each change is at least a second after the last. */
function tick(repo: Repo): string {
  repo.clock = Math.max(repo.clock + 1000, Math.floor(Date.now() / 1000) * 1000)
  return new Date(repo.clock).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

interface IssueSeed {
  number?: number
  title?: string
  body?: string | null
  state?: 'open' | 'closed'
  state_reason?: string | null
  labels?: { name: string; color: string }[]
  assignees?: string[]
  pull_request?: boolean
}

function addIssue(repo: Repo, seed: IssueSeed): Issue {
  const at = tick(repo)
  const issue: Issue = {
    id: ids++,
    number: repo.next++,
    title: seed.title ?? 'Untitled',
    body: seed.body ?? null,
    state: seed.state ?? 'open',
    state_reason: seed.state_reason ?? null,
    labels: seed.labels ?? [],
    assignees: seed.assignees ?? [],
    created_at: at,
    updated_at: at,
    pull_request: seed.pull_request ?? false,
    comments: [],
  }
  repo.issues.push(issue)
  return issue
}

function control(parts: string[], method: string, raw: string, response: ServerResponse, repos: Map<string, Repo>): void {
  const input = raw ? (JSON.parse(raw) as Record<string, unknown>) : {}
  if (parts[0] === 'tokens' && method === 'POST') {
    const token = `ghp_${randomUUID().replaceAll('-', '')}`
    const viewer: User = { login: 'octocat', id: ids++, name: 'The Octocat', email: 'octocat@example.com' }
    const users = [viewer, ...((input.users as string[] | undefined) ?? []).map((login) => ({ login, id: ids++, name: login, email: null }))]
    const repo: Repo = { fullName: String(input.repo ?? 'acme/shop'), viewer, users, issues: [], next: 1, clock: Date.parse('2026-01-01T00:00:00Z'), limit: 5000, remaining: 5000, secondary: false }
    for (const seed of (input.issues as IssueSeed[] | undefined) ?? []) addIssue(repo, seed)
    repos.set(token, repo)
    return send(response, 201, { token })
  }
  const repo = repos.get(parts[0] ?? '')
  if (!repo) return send(response, 404, { error: 'no such token' })
  if (parts[1] === 'issues' && method === 'POST') {
    for (const seed of (input.issues as IssueSeed[] | undefined) ?? []) {
      const issue = seed.number === undefined ? undefined : repo.issues.find((candidate) => candidate.number === seed.number)
      if (!issue) {
        addIssue(repo, seed)
        continue
      }
      if (seed.title !== undefined) issue.title = seed.title
      if (seed.body !== undefined) issue.body = seed.body
      if (seed.state !== undefined) issue.state = seed.state
      if (seed.state_reason !== undefined) issue.state_reason = seed.state_reason
      if (seed.labels !== undefined) issue.labels = seed.labels
      if (seed.assignees !== undefined) issue.assignees = seed.assignees
      issue.updated_at = tick(repo)
    }
    return send(response, 200, { count: repo.issues.length })
  }
  if (parts[1] === 'rate-limit' && method === 'POST') {
    repo.remaining = Number(input.remaining)
    repo.secondary = input.secondary === true
    return send(response, 200, { remaining: repo.remaining })
  }
  if (parts.length === 1 && method === 'GET') return send(response, 200, { issues: repo.issues })
  send(response, 404, { error: 'unknown control call' })
}
