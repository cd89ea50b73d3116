import { measure, send, type BenchRequest, type Measurement } from './measure.ts'

/** A measured endpoint and its design.md §5 budget (round trips on d1/libsql/neon), when it has one. */
export interface Scenario {
  readonly name: string
  readonly budget?: number
  readonly expect?: number
  make(iteration: number): BenchRequest
}

export interface Seed {
  readonly issueIds: number[]
  readonly tagIds: number[]
  readonly moduleId: number
}

const WORDS = ['timeout', 'deadlock', 'refused', 'checkout', 'payment', 'login', 'queue', 'cache', 'disk', 'dns']

/** Creates the bench application's data through the API: a module, tags with rules, manual issues. */
export async function seedIssues(base: string, app: string, issues: number): Promise<Seed> {
  const module = await send(base, { method: 'POST', api: 'modules', body: { name: 'Bench module' } }, app)
  const tagIds: number[] = []
  for (const word of WORDS) {
    const tag = await send(base, { method: 'POST', api: 'tags', body: { name: `Tag ${word}`, match_word: word } }, app)
    tagIds.push(tag.body.id)
  }
  const issueIds: number[] = []
  for (let i = 0; i < issues; i++) {
    const word = WORDS[i % WORDS.length]
    const created = await send(
      base,
      { method: 'POST', api: 'issues', body: { title: `Bench issue ${i}: ${word} in worker ${i % 17}`, description: `Seeded issue ${i} about ${word}.`, module_id: i % 3 === 0 ? module.body.id : null } },
      app,
    )
    if (created.status !== 201) throw new Error(`seeding failed: ${created.status} ${JSON.stringify(created.body)}`)
    issueIds.push(created.body.data.id)
  }
  return { issueIds, tagIds, moduleId: module.body.id }
}

/** The endpoints of issues 2 and 3, each with its budget. */
export function coreScenarios(seed: Seed, run: string): Scenario[] {
  const ids200 = seed.issueIds.slice(0, 200)
  const pick = (i: number) => seed.issueIds[Math.abs(i) % seed.issueIds.length]!
  const statuses = ['in_progress', 'fixed', 'open', 'wont_fix']
  return [
    { name: 'GET health', make: () => ({ method: 'GET', api: 'health' }) },
    { name: 'GET applications', make: () => ({ method: 'GET', api: 'applications' }) },
    { name: 'GET tags (counts + rules)', budget: 1, make: () => ({ method: 'GET', api: 'tags' }) },
    {
      name: 'POST tags (create + rule)',
      budget: 3,
      expect: 201,
      make: (i) => ({ method: 'POST', api: 'tags', body: { name: `New ${run} ${i}`, match_word: WORDS[Math.abs(i) % WORDS.length] } }),
    },
    {
      name: 'PUT tags (update + rule)',
      budget: 3,
      make: (i) => ({ method: 'PUT', api: 'tags', body: { id: seed.tagIds[0], name: 'Tag timeout', match_word: i % 2 ? 'timeout' : 'refused' } }),
    },
    { name: 'POST issue-tags', budget: 3, make: (i) => ({ method: 'POST', api: 'issue-tags', body: { group_id: pick(i), tag_id: seed.tagIds[1], action: i % 2 ? 'remove' : 'add' } }) },
    { name: 'GET issues (list)', budget: 2, make: () => ({ method: 'GET', api: 'issues' }) },
    { name: 'GET groups (dashboard list)', budget: 2, make: () => ({ method: 'GET', api: 'groups', query: { limit: 50 } }) },
    { name: 'GET groups (priority, slim rows)', budget: 2, make: () => ({ method: 'GET', api: 'groups', query: { limit: 50, sort: 'priority', include_stack: 0, include_context: 0 } }) },
    { name: 'GET issues?q=&tag=', budget: 2, make: () => ({ method: 'GET', api: 'issues', query: { q: 'deadlock', tag: 'Tag deadlock' } }) },
    { name: 'GET error (detail)', budget: 2, make: (i) => ({ method: 'GET', api: 'error', query: { id: pick(i) } }) },
    { name: 'POST issues (manual)', expect: 201, make: (i) => ({ method: 'POST', api: 'issues', body: { title: `Manual ${run} ${i} cache miss` } }) },
    { name: 'POST issue-status', budget: 3, make: (i) => ({ method: 'POST', api: 'issue-status', body: { id: pick(i), status: statuses[Math.abs(i) % 4], note: 'bench' } }) },
    {
      name: 'POST bulk-issues status ×200',
      budget: 3,
      make: (i) => ({ method: 'POST', api: 'bulk-issues', body: { ids: ids200, action: 'status', status: statuses[Math.abs(i) % 4] } }),
    },
    {
      name: 'POST bulk-issues add_tag ×200',
      budget: 3,
      make: (i) => ({ method: 'POST', api: 'bulk-issues', body: { ids: ids200, action: i % 2 ? 'remove_tag' : 'add_tag', tag_id: seed.tagIds[2] } }),
    },
    { name: 'POST assign-issue', make: (i) => ({ method: 'POST', api: 'assign-issue', body: { id: pick(i) } }) },
    { name: 'GET modules', make: () => ({ method: 'GET', api: 'modules' }) },
  ]
}

export async function runScenarios(base: string, app: string, scenarios: Scenario[], count: number): Promise<Measurement[]> {
  const results: Measurement[] = []
  for (const scenario of scenarios) {
    results.push(await measure(scenario.name, base, app, scenario.make, { count, warmup: 2, expect: scenario.expect }))
  }
  return results
}
