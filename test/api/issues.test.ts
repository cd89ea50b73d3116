import { beforeAll, describe, expect, it } from 'vitest'
import { call, createTestApp, get, post } from './helpers/api.ts'
import { createIssue, createTag, expectRoundTrips } from './helpers/fixtures.ts'

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/
const today = () => new Date().toISOString().slice(0, 10)

const ITEM_KEYS = [
  'id', 'fingerprint', 'severity', 'environment', 'title', 'exception_class', 'source_frame', 'count', 'first_seen',
  'last_seen', 'created_at', 'status', 'status_updated_at', 'log_type', 'channel', 'origin', 'kind', 'module_id',
  'external_source', 'external_id', 'external_url', 'assignee', 'assigned_to_id', 'assigned_to_label', 'module_name',
  'module_slug', 'module_color', 'has_stack', 'tags', 'trend', 'badges',
].sort()

describe('POST ?api=issues — manual issues (reference §3.1)', () => {
  let app: string
  beforeAll(async () => {
    app = await createTestApp('manual')
  })

  it('creates an issue with the reference defaults and answers 201 with its detail', async () => {
    const response = await post('issues', { title: '  Export button does nothing  ' }, { query: { app } })
    expect(response.status).toBe(201)
    const { data, occurrences, timeline, status_history, tags, meta } = response.body
    expect(data).toMatchObject({
      title: 'Export button does nothing',
      kind: 'issue',
      severity: 'INFO',
      status: 'open',
      environment: 'local',
      origin: 'manual',
      log_type: 'manual',
      channel: 'manual',
      count: 0,
      exception_class: null,
      source_frame: null,
      module_id: null,
      sample_message: 'Export button does nothing',
      sample_stack: null,
    })
    expect(data.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    expect(data.created_at).toMatch(TIMESTAMP)
    expect(data.first_seen).toBe(data.created_at)
    expect(data.last_seen).toBe(data.created_at)
    expect(JSON.parse(data.sample_context)).toEqual({ origin: 'manual', kind: 'issue', module_id: null })
    expect(occurrences).toEqual([])
    expect(timeline).toEqual([])
    expect(tags).toEqual([])
    expect(status_history).toEqual([
      { id: expect.any(Number), group_id: data.id, from_status: null, to_status: 'open', note: 'Created manually as issue.', created_at: data.created_at, actor: 'Local' },
    ])
    expect(meta).toMatchObject({ total_occurrences: 0, page: 1 })
    expectRoundTrips(response, 1, 6)
  })

  it('stores every field given, with tags attached as manual', async () => {
    const moduleResponse = await post('modules', { name: 'Billing' }, { query: { app } })
    const tag = await createTag(app, { name: 'Customer' })
    const response = await post(
      'errors',
      {
        title: 'Refunds stuck',
        description: 'Refund jobs never finish',
        kind: 'feature_request',
        severity: 'warning',
        status: 'in_progress',
        source_frame: 'app/Refunds.php:12',
        environment: ' staging ',
        note: '  reported by support  ',
        tag_ids: [tag.id, tag.id],
        module_id: moduleResponse.body.id,
      },
      { query: { app } },
    )
    expect(response.status).toBe(201)
    const { data, status_history, tags } = response.body
    expect(data).toMatchObject({
      kind: 'feature_request', severity: 'WARNING', status: 'in_progress', source_frame: 'app/Refunds.php:12',
      environment: 'staging', sample_message: 'Refund jobs never finish', module_id: moduleResponse.body.id,
      module_name: 'Billing', module_slug: 'billing', module_color: '#6366f1',
    })
    expect(JSON.parse(data.sample_context)).toEqual({ origin: 'manual', kind: 'feature_request', module_id: moduleResponse.body.id })
    expect(status_history).toHaveLength(1)
    expect(status_history[0]).toMatchObject({ from_status: null, to_status: 'in_progress', note: 'reported by support' })
    expect(tags).toEqual([expect.objectContaining({ id: tag.id, name: 'Customer', source: 'manual' })])
  })

  it('words the default history note after the kind', async () => {
    const data = await createIssue(app, { title: 'Kinds', kind: 'feature_request' })
    const detail = await get('error', { query: { app, id: data.id } })
    expect(detail.body.status_history[0].note).toBe('Created manually as feature request.')
  })

  it.each([
    [{}, 'Issue title is required.'],
    [{ title: '   ' }, 'Issue title is required.'],
    [{ title: 't'.repeat(501) }, 'Issue title cannot exceed 500 characters.'],
    [{ title: 't', description: 'd'.repeat(120_001) }, 'Issue description cannot exceed 120,000 characters.'],
    [{ title: 't', kind: 'error' }, 'Unsupported manual issue kind.'],
    [{ title: 't', severity: 'LOUD' }, 'Unsupported issue severity.'],
    [{ title: 't', status: 'resolved' }, 'Unsupported issue status.'],
    [{ title: 't', source_frame: 's'.repeat(1001) }, 'Related source cannot exceed 1,000 characters.'],
    [{ title: 't', environment: '  ' }, 'Environment must contain 1–100 characters.'],
    [{ title: 't', environment: 'e'.repeat(101) }, 'Environment must contain 1–100 characters.'],
    [{ title: 't', note: 'n'.repeat(10_001) }, 'Creation note cannot exceed 10,000 characters.'],
    [{ title: 't', tag_ids: '1,2' }, 'tag_ids must be an array.'],
    [{ title: 't', tag_ids: [987654] }, 'Tag 987654 does not exist.'],
    [{ title: 't', tag_ids: ['nope'] }, 'Tag nope does not exist.'],
    [{ title: 't', module_id: -1 }, 'module_id must be a positive integer or null.'],
    [{ title: 't', module_id: 'abc' }, 'module_id must be a positive integer or null.'],
    [{ title: 't', module_id: 987654 }, 'Module 987654 does not exist in this application.'],
  ])('rejects %j with 422 and creates nothing', async (body, message) => {
    const before = await get('issues', { query: { app } })
    const response = await post('issues', body, { query: { app } })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({ error: message })
    const after = await get('issues', { query: { app } })
    expect(after.body.meta.total).toBe(before.body.meta.total)
  })

  it('refuses a mix of existing and missing references, naming the missing one, and writes nothing (the check rides in the INSERT)', async () => {
    const tag = await createTag(app, { name: 'Exists for the mix' })
    const module = await post('modules', { name: 'Mix module', slug: 'mix-module' }, { query: { app } })
    const before = await get('issues', { query: { app } })
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'Mixed tags', tag_ids: [tag.id, 987654] }, 'Tag 987654 does not exist.'],
      [{ title: 'Tag fine, module missing', tag_ids: [tag.id], module_id: 987654 }, 'Module 987654 does not exist in this application.'],
      [{ title: 'Module fine, tag missing', tag_ids: [987654], module_id: module.body.id }, 'Tag 987654 does not exist.'],
    ]
    for (const [body, message] of cases) {
      const response = await post('issues', body, { query: { app } })
      expect({ status: response.status, body: response.body }).toEqual({ status: 422, body: { error: message } })
    }
    expect((await get('issues', { query: { app } })).body.meta.total).toBe(before.body.meta.total)
    expect((await get('tags', { query: { app } })).body.data.find((row: { id: number }) => row.id === tag.id).issue_count).toBe(0)
    const created = await post('issues', { title: 'Both fine', tag_ids: [tag.id, tag.id], module_id: module.body.id }, { query: { app } })
    expect(created.status, created.text).toBe(201)
    expect({ module: created.body.data.module_id, tags: created.body.tags.map((row: { id: number }) => row.id) }).toEqual({ module: module.body.id, tags: [tag.id] })
  })

  it('accepts module_id null or empty as no module', async () => {
    expect((await createIssue(app, { title: 'No module', module_id: null })).module_id).toBeNull()
    expect((await createIssue(app, { title: 'No module either', module_id: '' })).module_id).toBeNull()
  })
})

describe('issue search (reference §3.1 errors/issues/groups)', () => {
  let app: string
  const ids: Record<string, number> = {}
  beforeAll(async () => {
    app = await createTestApp('search')
    const billing = await post('modules', { name: 'Billing Service', slug: 'billing' }, { query: { app } })
    const tag = await createTag(app, { name: 'Hot Path' })
    ids.a = (await createIssue(app, { title: 'Alpha checkout failure', severity: 'ERROR', kind: 'bug', module_id: billing.body.id })).id
    ids.b = (await createIssue(app, { title: 'Beta slow report', severity: 'WARNING', status: 'in_progress', description: 'The 100% CPU report' })).id
    ids.c = (await createIssue(app, { title: 'Gamma login loop', severity: 'ERROR', kind: 'task', tag_ids: [tag.id] })).id
    await post('issue-status', { id: ids.c, status: 'fixed' }, { query: { app } })
  })

  const titles = (body: { data?: { title: string }[]; items?: { title: string }[] }) => (body.data ?? body.items ?? []).map((item) => item.title)

  it('lists {data, meta} with every item field, newest first by default', async () => {
    const response = await get('issues', { query: { app } })
    expect(response.status).toBe(200)
    expect(response.body.meta).toEqual({ total: 3, page: 1, limit: 50, pages: 1, sort: 'newest', include_stack: false, include_context: false, skip_vendor: false })
    expect(Object.keys(response.body.data[0]).sort()).toEqual(ITEM_KEYS)
    expect(response.body.data.every((item: { has_stack: number }) => item.has_stack === 0)).toBe(true)
    const withTag = response.body.data.find((item: { id: number }) => item.id === ids.c)
    expect(withTag.tags).toEqual([{ id: expect.any(Number), name: 'Hot Path', color: '#64748b', icon: 'tag', source: 'manual' }])
    expectRoundTrips(response, 1, 2)
  })

  it('serves the same search under errors', async () => {
    const errors = await get('errors', { query: { app } })
    const issues = await get('issues', { query: { app } })
    expect(errors.body).toEqual(issues.body)
  })

  it('adds samples on request', async () => {
    const response = await get('issues', { query: { app, include_stack: 'true', include_context: '1' } })
    expect(response.body.meta).toMatchObject({ include_stack: true, include_context: true })
    const item = response.body.data.find((entry: { id: number }) => entry.id === ids.b)
    expect(item).toMatchObject({ sample_stack: null, sample_message: 'The 100% CPU report' })
    expect(JSON.parse(item.sample_context)).toMatchObject({ origin: 'manual' })
  })

  it('paginates with meta', async () => {
    const first = await get('issues', { query: { app, limit: 2, page: 1, sort: 'oldest' } })
    const second = await get('issues', { query: { app, limit: 2, page: 2, sort: 'oldest' } })
    expect(first.body.meta).toMatchObject({ total: 3, page: 1, limit: 2, pages: 2, sort: 'oldest' })
    expect(titles(first.body)).toEqual(['Alpha checkout failure', 'Beta slow report'])
    expect(titles(second.body)).toEqual(['Gamma login loop'])
    const beyond = await get('issues', { query: { app, limit: 2, page: 5 } })
    expect(beyond.body.data).toEqual([])
    expect(beyond.body.meta.total).toBe(3)
  })

  it.each([
    [{ q: 'CHECKOUT' }, ['Alpha checkout failure']],
    [{ q: '100% cpu' }, ['Beta slow report']],
    [{ q: '100_' }, []],
    [{ q: 'billing serv' }, ['Alpha checkout failure']],
    [{ severity: 'error' }, ['Gamma login loop', 'Alpha checkout failure']],
    [{ status: 'in_progress' }, ['Beta slow report']],
    [{ status: 'fixed' }, ['Gamma login loop']],
    [{ kind: 'task' }, ['Gamma login loop']],
    [{ origin: 'manual' }, ['Gamma login loop', 'Beta slow report', 'Alpha checkout failure']],
    [{ origin: 'ingested' }, []],
    [{ log_type: 'manual', severity: 'WARNING' }, ['Beta slow report']],
    [{ module: 'billing' }, ['Alpha checkout failure']],
    [{ module: 'BILLING SERVICE' }, ['Alpha checkout failure']],
    [{ tag: 'hot path' }, ['Gamma login loop']],
    [{ has_stack: 'false', kind: 'bug' }, ['Alpha checkout failure']],
    [{ has_stack: 'true' }, []],
  ])('filters %j', async (filters, expected) => {
    const response = await get('issues', { query: { app, sort: 'newest', ...filters } })
    expect(response.status, response.text).toBe(200)
    expect(titles(response.body)).toEqual(expected)
  })

  it('filters by module id and tag id', async () => {
    const modules = await get('modules', { query: { app } })
    const moduleId = modules.body.data[0].id
    expect(titles((await get('issues', { query: { app, module: moduleId } })).body)).toEqual(['Alpha checkout failure'])
    const tags = await get('tags', { query: { app } })
    expect(titles((await get('issues', { query: { app, tag: tags.body.data[0].id } })).body)).toEqual(['Gamma login loop'])
  })

  it('filters manual issues by the day they were created', async () => {
    expect((await get('issues', { query: { app, date: today() } })).body.meta.total).toBe(3)
    expect((await get('issues', { query: { app, date: '2001-01-01' } })).body.meta.total).toBe(0)
  })

  it.each([
    [{ date: '2024-1-1' }, 'date must use YYYY-MM-DD.'],
    [{ date: 'yesterday' }, 'date must use YYYY-MM-DD.'],
    [{ severity: 'LOUD' }, 'Unsupported issue severity.'],
    [{ status: 'resolved' }, 'Unsupported issue status.'],
    [{ origin: 'somewhere' }, 'Unsupported issue origin.'],
    [{ kind: 'epic' }, 'Unsupported issue kind.'],
    [{ sort: 'random' }, 'sort must be newest, oldest, occurrences or priority.'],
    [{ has_stack: 'yes' }, 'has_stack must be true, false, 1 or 0.'],
    [{ include_stack: 'on' }, 'include_stack must be true, false, 1 or 0.'],
    [{ limit: '0' }, 'limit must be an integer from 1 to 200.'],
    [{ limit: '201' }, 'limit must be an integer from 1 to 200.'],
    [{ page: '0' }, 'page must be an integer from 1 to 1000000.'],
    [{ page: 'two' }, 'page must be an integer from 1 to 1000000.'],
  ])('rejects %j with 422', async (filters, message) => {
    const response = await get('issues', { query: { app, ...filters } })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({ error: message })
  })

  it('sorts by occurrences, newest and oldest', async () => {
    expect(titles((await get('issues', { query: { app, sort: 'oldest' } })).body)).toEqual(['Alpha checkout failure', 'Beta slow report', 'Gamma login loop'])
    expect(titles((await get('issues', { query: { app, sort: 'newest' } })).body)).toEqual(['Gamma login loop', 'Beta slow report', 'Alpha checkout failure'])
    expect(titles((await get('issues', { query: { app, sort: 'occurrences' } })).body)).toEqual(['Gamma login loop', 'Beta slow report', 'Alpha checkout failure'])
  })

  it('honours the configured page sizes', async () => {
    const env = { SERVICE_CONFIG: JSON.stringify({ pagination: { default_limit: 2, max_limit: 2 } }) }
    const response = await get('issues', { query: { app }, env })
    expect(response.body.meta).toMatchObject({ limit: 2, pages: 2 })
    expect((await get('issues', { query: { app, limit: 3 }, env })).body).toEqual({ error: 'limit must be an integer from 1 to 2.' })
  })

  it('groups: {items, meta}, samples always included, most occurrences first', async () => {
    const response = await get('groups', { query: { app } })
    expect(response.status).toBe(200)
    expect(response.body.meta).toEqual({ total: 3, page: 1, limit: 50, pages: 1 })
    expect(Object.keys(response.body.items[0]).sort()).toEqual([...ITEM_KEYS, 'sample_context', 'sample_message', 'sample_stack'].sort())
    expect(titles(response.body)).toEqual(['Gamma login loop', 'Beta slow report', 'Alpha checkout failure'])
    expect((await post('groups', {}, { query: { app } })).status).toBe(405)
  })
})

describe('issue detail (reference §3.1 error/group)', () => {
  let app: string
  let id: number
  beforeAll(async () => {
    app = await createTestApp('detail')
    const tag = await createTag(app, { name: 'Zeta' })
    const other = await createTag(app, { name: 'alpha' })
    id = (await createIssue(app, { title: 'Detail me', tag_ids: [tag.id, other.id] })).id
    await post('issue-status', { id, status: 'in_progress', note: 'looking' }, { query: { app } })
    await post('issue-status', { id, status: 'fixed' }, { query: { app } })
  })

  it('error: {data, occurrences, timeline, status_history (newest first), tags (by name), meta}', async () => {
    const response = await get('error', { query: { app, id } })
    expect(response.status).toBe(200)
    expect(Object.keys(response.body).sort()).toEqual(['data', 'meta', 'occurrences', 'status_history', 'tags', 'timeline'])
    expect(response.body.data).toMatchObject({ id, title: 'Detail me', status: 'fixed', sample_message: 'Detail me' })
    expect(response.body.data.sample_context).toBeTypeOf('string')
    expect(response.body.status_history.map((row: { to_status: string }) => row.to_status)).toEqual(['fixed', 'in_progress', 'open'])
    expect(response.body.status_history[1]).toMatchObject({ from_status: 'open', to_status: 'in_progress', note: 'looking', actor: 'Local' })
    expect(response.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['alpha', 'Zeta'])
    expect(response.body.tags[0]).toEqual({ id: expect.any(Number), name: 'alpha', color: '#64748b', icon: 'tag', created_at: expect.stringMatching(TIMESTAMP), created_by: 'Local', updated_by: 'Local', source: 'manual' })
    expect(response.body.meta).toEqual({ total_occurrences: 0, page: 1, limit: 100, pages: 0, skip_vendor: false, include_context: true })
    expectRoundTrips(response, 1, 2)
  })

  it('group: the same under `group`, with the larger default page', async () => {
    const response = await get('group', { query: { app, id } })
    expect(response.body.group).toMatchObject({ id, title: 'Detail me' })
    expect(response.body.meta.limit).toBe(500)
  })

  it('leaves the context out when include_context is false', async () => {
    const response = await get('error', { query: { app, id, include_context: 'false' } })
    expect(response.body.data).not.toHaveProperty('sample_context')
    expect(response.body.meta.include_context).toBe(false)
  })

  it('answers 404 for an unknown issue and 422 for a bad id or limit', async () => {
    expect(await get('error', { query: { app, id: 999999 } })).toMatchObject({ status: 404, body: { error: 'Issue not found.' } })
    expect(await get('group', { query: { app } })).toMatchObject({ status: 422, body: { error: 'A valid issue id is required.' } })
    expect(await get('error', { query: { app, id: 'x' } })).toMatchObject({ status: 422, body: { error: 'A valid issue id is required.' } })
    expect(await get('error', { query: { app, id, limit: 501 } })).toMatchObject({ status: 422, body: { error: 'limit must be an integer from 1 to 500.' } })
  })
})
