import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startGithubServer, type GithubServer } from '../../../tools/servers/github-server.ts'
import { startLinearServer, type LinearServer } from '../../../tools/servers/linear-server.ts'

/** The local tracker APIs answer as the real ones document (the worker's side is test/api/tracker*.test.ts). */
let linear: LinearServer
let github: GithubServer
beforeAll(async () => {
  ;[linear, github] = await Promise.all([startLinearServer(), startGithubServer()])
})
afterAll(async () => {
  await Promise.all([linear.close(), github.close()])
})

/** A JSON body, untyped as the test reads it. */
const body = async (response: Response | Promise<Response>): Promise<any> => (await response).json()

const graphql = (key: string | null, query: string, variables: Record<string, unknown> = {}) =>
  fetch(`${linear.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { authorization: key } : {}) }, body: JSON.stringify({ query, variables }) })

describe('tools/servers/linear-server.ts', () => {
  it('refuses a missing key with 401 AUTHENTICATION_ERROR, rate-limits with 400 RATELIMITED and X-RateLimit headers, and pages with cursors', async () => {
    const unauthenticated = await graphql(null, 'query Viewer { viewer { id } }')
    expect(unauthenticated.status).toBe(401)
    expect((await body(unauthenticated)).errors[0].extensions.code).toBe('AUTHENTICATION_ERROR')

    const { api_key: key } = await body(fetch(`${linear.url}/control/workspaces`, { method: 'POST', body: JSON.stringify({ issues: [{ title: 'A' }, { title: 'B' }, { title: 'C' }] }) }))
    const query = 'query Issues($filter: IssueFilter, $first: Int, $after: String) { issues { nodes { id } pageInfo { hasNextPage endCursor } } }'
    const first = await graphql(key, query, { filter: { and: [] }, first: 2 })
    expect(first.headers.get('x-ratelimit-requests-limit')).toBe('1500')
    const page = (await body(first)).data.issues
    expect([page.nodes.length, page.pageInfo.hasNextPage]).toEqual([2, true])
    const rest = (await body(graphql(key, query, { first: 2, after: page.pageInfo.endCursor }))).data.issues
    expect([rest.nodes.length, rest.pageInfo.hasNextPage]).toEqual([1, false])
    expect((await body(graphql(key, query, { filter: { priority: { eq: 1 } } }))).errors[0].message).toBe('Field "priority" is not defined by type "IssueFilter".')

    await fetch(`${linear.url}/control/${key}/rate-limit`, { method: 'POST', body: JSON.stringify({ remaining: 0 }) })
    const limited = await graphql(key, 'query Viewer { viewer { id } }')
    expect(limited.status).toBe(400)
    expect(limited.headers.get('x-ratelimit-requests-remaining')).toBe('0')
    expect(Number(limited.headers.get('x-ratelimit-requests-reset'))).toBeGreaterThan(Date.now())
    expect((await body(limited)).errors[0].extensions.code).toBe('RATELIMITED')
  })
})

describe('tools/servers/github-server.ts', () => {
  it('answers Bad credentials, pages with Link headers, and rate-limits with 403 / 429', async () => {
    const bad = await fetch(`${github.url}/user`, { headers: { authorization: 'Bearer nope' } })
    expect([bad.status, (await body(bad)).message]).toEqual([401, 'Bad credentials'])

    const { token } = await body(fetch(`${github.url}/control/tokens`, { method: 'POST', body: JSON.stringify({ repo: 'acme/shop', issues: [{ title: 'A' }, { title: 'B' }, { title: 'C' }] }) }))
    const auth = { authorization: `Bearer ${token}` }
    const first = await fetch(`${github.url}/repos/acme/shop/issues?per_page=2&state=all`, { headers: auth })
    expect((await body(first)).length).toBe(2)
    const link = first.headers.get('link')!
    expect(link).toMatch(/<[^>]+page=2[^>]*>; rel="next", <[^>]+page=2[^>]*>; rel="last"/)
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!
    const second = await fetch(next, { headers: auth })
    expect([(await body(second)).length, second.headers.get('link')]).toEqual([1, expect.stringContaining('rel="prev"')])
    expect((await fetch(`${github.url}/repos/other/repo/issues`, { headers: auth })).status).toBe(404)

    await fetch(`${github.url}/control/${token}/rate-limit`, { method: 'POST', body: JSON.stringify({ remaining: 0 }) })
    const primary = await fetch(`${github.url}/user`, { headers: auth })
    expect([primary.status, primary.headers.get('x-ratelimit-remaining')]).toEqual([403, '0'])
    await fetch(`${github.url}/control/${token}/rate-limit`, { method: 'POST', body: JSON.stringify({ remaining: 0, secondary: true }) })
    const secondary = await fetch(`${github.url}/user`, { headers: auth })
    expect([secondary.status, secondary.headers.get('retry-after')]).toEqual([429, '60'])
  })
})
