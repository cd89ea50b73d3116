import type { IssueStatus, Severity } from '../../../shared/constants.ts'
import { OperationalError } from '../../errors.ts'
import { hmacHex, trackerRateLimited, trackerRequest, type TrackerAnswer } from './tracker-http.ts'
import type { ExternalIssue, Tracker, TrackerClient, TrackerFilters } from './tracker.ts'

/**
 * GitHub Issues (issue 16, beyond the reference), REST API v3 at `https://api.github.com` with
 * `Authorization: Bearer <token>`. One repository (`owner/name`); labels are GitHub's own `labels` parameter (an
 * issue must carry all of them), assignees (and "assigned to me") are matched here, as GitHub takes one assignee
 * per request. Pull requests, which the issues API also lists, are skipped. tools/servers/github-server.ts answers
 * exactly these calls.
 */
const NAME = 'GitHub'

/** Labels that say how bad an issue is (GitHub has no priority field); anything else is WARNING. */
const SEVERITY_LABELS: readonly [RegExp, Severity][] = [
  [/^(critical|urgent|p0|sev[ -]?0|blocker)$/i, 'CRITICAL'],
  [/^(bug|high|p1|sev[ -]?1|regression)$/i, 'ERROR'],
  [/^(low|p3|minor|enhancement|feature|question|documentation)$/i, 'NOTICE'],
]

export const githubTracker: Tracker = {
  provider: 'github',
  name: NAME,
  defaultBaseUrl: 'https://api.github.com',
  signatureHeader: 'X-Hub-Signature-256',

  missingFilter(filters) {
    return filters.repository ? null : 'Set the GitHub repository (owner/name) before syncing.'
  },

  missingPushTarget(filters) {
    return filters.repository ? null : 'Set the GitHub repository (owner/name) before creating GitHub issues.'
  },

  async viewer(client) {
    const user = (await rest(client, 'GET', url(client, '/user'))).body as GithubUser
    return { id: String(user.id), name: user.name || user.login, email: user.email ?? null }
  },

  async listIssues(client, filters, page) {
    const repository = filters.repository!
    let target: string
    if (page.cursor) {
      // The cursor is GitHub's own `next` link: followed only when it points back at the same API.
      if (new URL(page.cursor).origin !== new URL(client.baseUrl).origin) throw new OperationalError(`${NAME} answered a next page on another host.`)
      target = page.cursor
    } else {
      const query = new URLSearchParams({ state: 'all', sort: 'updated', direction: 'asc', per_page: String(Math.min(100, page.pageSize)) })
      if (filters.labels.length) query.set('labels', filters.labels.join(','))
      if (page.updatedAfter) query.set('since', page.updatedAfter)
      target = url(client, `/repos/${repository}/issues?${query}`)
    }
    const answer = await rest(client, 'GET', target)
    const me = filters.assignedToMe ? ((await rest(client, 'GET', url(client, '/user'))).body as GithubUser).login.toLowerCase() : null
    const wanted = new Set(filters.assignees.map((login) => login.toLowerCase()))
    if (me) wanted.add(me)
    const issues = (answer.body as GithubIssue[])
      .filter((issue) => !issue.pull_request)
      // `since` is inclusive on GitHub; the sync's floor is exclusive.
      .filter((issue) => !page.updatedAfter || issue.updated_at > page.updatedAfter)
      .filter((issue) => wanted.size === 0 || issue.assignees.some((user) => wanted.has(user.login.toLowerCase())))
      .map((issue) => toExternal(repository, issue))
    return { issues, next: nextLink(answer.headers.get('link')) }
  },

  async setStatus(client, externalId, status, comment) {
    const { repository, number } = parseId(externalId)
    const change = STATUS_CHANGE[status]
    if (!change) return null
    if (comment !== null) await rest(client, 'POST', url(client, `/repos/${repository}/issues/${number}/comments`), { body: comment })
    const issue = (await rest(client, 'PATCH', url(client, `/repos/${repository}/issues/${number}`), change)).body as GithubIssue
    return { state: stateName(issue) }
  },

  async createIssue(client, filters, draft) {
    const repository = filters.repository!
    const issue = (await rest(client, 'POST', url(client, `/repos/${repository}/issues`), { title: draft.title, body: draft.body })).body as GithubIssue
    return toExternal(repository, issue)
  },

  async expectedSignature(secret, rawBody) {
    return `sha256=${await hmacHex(secret, rawBody)}`
  },
}

/** Write-back (issue 16): fixed/wont_fix close the issue as completed/not planned; open and reoccurred reopen it. */
const STATUS_CHANGE: Readonly<Record<IssueStatus, Record<string, string> | null>> = {
  fixed: { state: 'closed', state_reason: 'completed' },
  wont_fix: { state: 'closed', state_reason: 'not_planned' },
  reoccurred: { state: 'open', state_reason: 'reopened' },
  open: { state: 'open', state_reason: 'reopened' },
  in_progress: null,
}

interface GithubUser {
  id: number
  login: string
  name?: string | null
  email?: string | null
}

interface GithubIssue {
  id: number
  number: number
  title: string
  body: string | null
  html_url: string
  state: 'open' | 'closed'
  state_reason: string | null
  labels: ({ name: string; color?: string | null } | string)[]
  assignees: GithubUser[]
  created_at: string
  updated_at: string
  pull_request?: unknown
}

/** `owner/name#12`: unique across repositories, and all a later call needs. */
function parseId(externalId: string): { repository: string; number: number } {
  const match = /^(.+)#(\d+)$/.exec(externalId)
  if (!match) throw new OperationalError(`Not a GitHub issue: ${externalId}.`)
  return { repository: match[1]!, number: Number(match[2]) }
}

function stateName(issue: GithubIssue): string {
  return issue.state === 'closed' && issue.state_reason === 'not_planned' ? 'closed (not planned)' : issue.state
}

function toExternal(repository: string, issue: GithubIssue): ExternalIssue {
  const labels = issue.labels.map((label) => (typeof label === 'string' ? { name: label, color: null } : { name: label.name, color: label.color ? `#${label.color}` : null }))
  const severity = SEVERITY_LABELS.find(([pattern]) => labels.some((label) => pattern.test(label.name)))?.[1] ?? 'WARNING'
  const status: IssueStatus = issue.state === 'closed' ? (issue.state_reason === 'not_planned' ? 'wont_fix' : 'fixed') : issue.state_reason === 'reopened' ? 'reoccurred' : 'open'
  const assignee = issue.assignees[0]?.login ?? null
  return {
    id: `${repository}#${issue.number}`,
    identifier: `#${issue.number}`,
    title: issue.title,
    description: issue.body,
    url: issue.html_url,
    severity,
    status,
    state: stateName(issue),
    labels,
    assignee,
    container: repository,
    createdAt: issue.created_at,
    updatedAt: issue.updated_at,
    context: { origin: 'github', identifier: `${repository}#${issue.number}`, state: stateName(issue), labels: labels.map((label) => label.name), repository, assignee, url: issue.html_url },
  }
}

/** The `rel="next"` target of a `Link` header (RFC 8288), or null on the last page. */
export function nextLink(header: string | null): string | null {
  if (!header) return null
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?([^";]+)"?/.exec(part.trim())
    if (match && match[2]!.split(/\s+/).includes('next')) return match[1]!
  }
  return null
}

function url(client: TrackerClient, path: string): string {
  return `${client.baseUrl.replace(/\/+$/, '')}${path}`
}

/**
 * One REST call. 401 is a rejected token; GitHub's rate limits are 403 or 429 with `x-ratelimit-remaining: 0`
 * (reset in epoch seconds) or a `retry-after` (secondary limits) — a 429 here; other failures are
 * `GitHub API error: <message>`.
 */
async function rest(client: TrackerClient, method: string, target: string, body?: unknown): Promise<TrackerAnswer> {
  const answer = await trackerRequest(NAME, client, target, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${client.apiKey}`,
      'x-github-api-version': '2022-11-28',
      'user-agent': 'Loupe-Tracker/1',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (answer.status >= 200 && answer.status < 300) return answer
  if (answer.status === 401) throw new OperationalError(`${NAME} rejected the token (HTTP 401).`)
  const retryAfter = answer.headers.get('retry-after')
  if ((answer.status === 403 || answer.status === 429) && (answer.headers.get('x-ratelimit-remaining') === '0' || retryAfter !== null)) {
    const reset = Number(answer.headers.get('x-ratelimit-reset'))
    throw trackerRateLimited(NAME, Number.isFinite(reset) && reset > 0 ? reset * 1000 : null, retryAfter !== null && Number.isFinite(Number(retryAfter)) ? Number(retryAfter) : null)
  }
  const message = (answer.body as { message?: unknown } | null)?.message
  throw new OperationalError(`${NAME} API error: ${typeof message === 'string' ? message.slice(0, 300) : `HTTP ${answer.status}`}`)
}
