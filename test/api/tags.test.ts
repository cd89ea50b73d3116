import { beforeAll, describe, expect, it } from 'vitest'
import { call, createTestApp, get, post } from './helpers/api.ts'
import { createIssue, createTag, expectRoundTrips, listTags, tagsOf } from './helpers/fixtures.ts'

let app: string
const q = () => ({ app })
beforeAll(async () => {
  app = await createTestApp('tags')
})

describe('tags: create (seed §4.2)', () => {
  it('creates a tag with defaults and returns 201 with the complete tag as the list shows it', async () => {
    const response = await post('tags', { name: '  Payments  ' }, { query: q() })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({
      id: expect.any(Number),
      name: 'Payments',
      color: '#64748b',
      icon: 'tag',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      created_by: 'Local',
      updated_by: 'Local',
      issue_count: 0,
      rules: [],
    })
    expect(response.body.id).toBeGreaterThanOrEqual(1)
    const listed = (await listTags(app)).find((tag) => tag.id === response.body.id)
    expect(listed).toEqual(response.body)
    // PlanetScale: the INSERT alone, answered from what it reports (issue 18; was BEGIN, INSERT, read, COMMIT).
    expectRoundTrips(response, 1, 1)
  })

  it('stores the colour lower-case and keeps a valid icon', async () => {
    const tag = await createTag(app, { name: 'Colourful', color: '#AbCdEf', icon: 'credit-card_2' })
    expect(tag).toMatchObject({ color: '#abcdef', icon: 'credit-card_2' })
  })

  it('accepts the limits exactly: 80-character name, 32-character icon, 200-character match word', async () => {
    const name = 'n'.repeat(80)
    const tag = await createTag(app, { name, icon: 'a'.repeat(32), match_word: 'w'.repeat(200) })
    expect(tag.name).toBe(name)
    expect(tag.rules).toEqual([{ id: expect.any(Number), match_word: 'w'.repeat(200), enabled: true }])
  })

  it.each([
    [{}, 'Tag name must contain 1–80 characters.'],
    [{ name: '' }, 'Tag name must contain 1–80 characters.'],
    [{ name: '    ' }, 'Tag name must contain 1–80 characters.'],
    [{ name: 'x'.repeat(81) }, 'Tag name must contain 1–80 characters.'],
    [{ name: 42 }, 'Tag name must contain 1–80 characters.'],
    [{ name: 'c', color: 'red' }, 'Tag color must be a hex color like #64748b.'],
    [{ name: 'c', color: '#abc' }, 'Tag color must be a hex color like #64748b.'],
    [{ name: 'c', color: '#abcdeg' }, 'Tag color must be a hex color like #64748b.'],
    [{ name: 'c', color: 'abcdef' }, 'Tag color must be a hex color like #64748b.'],
    [{ name: 'c', icon: 'Tag' }, 'Tag icon must start with a lower-case letter and contain at most 32 lower-case letters, digits, "_" or "-".'],
    [{ name: 'c', icon: '1tag' }, 'Tag icon must start with a lower-case letter and contain at most 32 lower-case letters, digits, "_" or "-".'],
    [{ name: 'c', icon: 'a'.repeat(33) }, 'Tag icon must start with a lower-case letter and contain at most 32 lower-case letters, digits, "_" or "-".'],
    [{ name: 'c', icon: '' }, 'Tag icon must start with a lower-case letter and contain at most 32 lower-case letters, digits, "_" or "-".'],
    [{ name: 'c', match_word: 'w'.repeat(201) }, 'Automatic tagging word cannot exceed 200 characters.'],
    [{ name: 'c', match_word: 7 }, 'match_word must be a string.'],
  ])('rejects %j with 422', async (body, message) => {
    const response = await post('tags', body, { query: q() })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({ error: message })
  })

  it('rejects a duplicate name case-insensitively and writes nothing', async () => {
    await createTag(app, { name: 'Checkout' })
    const before = await listTags(app)
    const response = await post('tags', { name: ' CHECKOUT ', match_word: 'anything' }, { query: q() })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({ error: 'A tag with this name already exists.' })
    expect(await listTags(app)).toEqual(before)
  })

  it('lists tags ordered by name, case-insensitively', async () => {
    const local = await createTestApp('tags-order')
    for (const name of ['beta', 'Alpha', 'gamma', 'Delta']) await createTag(local, { name })
    const names = (await listTags(local)).map((tag) => tag.name)
    expect(names).toEqual(['Alpha', 'beta', 'Delta', 'gamma'])
  })

  it('lists in one round trip with counts and rules', async () => {
    const response = await get('tags', { query: q() })
    expectRoundTrips(response, 1, 1)
  })
})

describe('tag rules (seed §2 "Tag rule", §4.2 rules 2–4)', () => {
  it('applies a new rule at once to issues whose title or sample message contains the word, case-insensitively', async () => {
    const local = await createTestApp('rules')
    const byTitle = await createIssue(local, { title: 'Stripe webhook TIMEOUT on /pay' })
    const byMessage = await createIssue(local, { title: 'Unrelated', description: 'upstream said: Timeout after 30s' })
    const other = await createIssue(local, { title: 'Disk full' })
    const tag = await createTag(local, { name: 'Timeouts', match_word: 'timeout' })
    expect(tag.issue_count).toBe(2)
    expect(tag.rules).toEqual([{ id: expect.any(Number), match_word: 'timeout', enabled: true }])
    expect(await tagsOf(local, byTitle.id)).toEqual({ Timeouts: 'rule' })
    expect(await tagsOf(local, byMessage.id)).toEqual({ Timeouts: 'rule' })
    expect(await tagsOf(local, other.id)).toEqual({})
  })

  it('applies existing rules to a newly created issue', async () => {
    const local = await createTestApp('rules-new')
    await createTag(local, { name: 'Db', match_word: 'deadlock' })
    const issue = await createIssue(local, { title: 'Deadlock detected in orders' })
    expect(await tagsOf(local, issue.id)).toEqual({ Db: 'rule' })
  })

  it('creates no rule for an empty or blank match word', async () => {
    const tag = await createTag(app, { name: 'No rule', match_word: '   ' })
    expect(tag.rules).toEqual([])
    expect(tag.issue_count).toBe(0)
  })

  it('on update clears rule-made assignments, recomputes them, and keeps manual ones', async () => {
    const local = await createTestApp('rules-update')
    const oldMatch = await createIssue(local, { title: 'Redis connection refused' })
    const manual = await createIssue(local, { title: 'Something else entirely' })
    const newMatch = await createIssue(local, { title: 'Memcached eviction storm' })
    const tag = await createTag(local, { name: 'Cache', match_word: 'redis' })
    await post('issue-tags', { group_id: manual.id, tag_id: tag.id }, { query: { app: local } })
    expect(await tagsOf(local, oldMatch.id)).toEqual({ Cache: 'rule' })

    const response = await call('PUT', 'tags', { query: { app: local }, body: { id: tag.id, name: 'Cache', match_word: 'memcached' } })
    expect(response.status).toBe(200)
    expect(response.body.rules).toEqual([{ id: expect.any(Number), match_word: 'memcached', enabled: true }])
    expect(response.body.rules[0].id).not.toBe(tag.rules[0].id)
    expect(response.body.issue_count).toBe(2)
    expect(await tagsOf(local, oldMatch.id)).toEqual({})
    expect(await tagsOf(local, manual.id)).toEqual({ Cache: 'manual' })
    expect(await tagsOf(local, newMatch.id)).toEqual({ Cache: 'rule' })
    // PlanetScale: BEGIN, update, rule and rule-made assignments deleted (one statement), rule, rule pass, COMMIT; read-back.
    expectRoundTrips(response, 1, 7)
  })

  it('keeps a manual assignment on an issue the rule also matches', async () => {
    const local = await createTestApp('rules-manual')
    const issue = await createIssue(local, { title: 'Queue backlog growing' })
    const tag = await createTag(local, { name: 'Queues' })
    await post('issue-tags', { group_id: issue.id, tag_id: tag.id }, { query: { app: local } })
    await call('PATCH', 'tags', { query: { app: local, id: tag.id }, body: { name: 'Queues', match_word: 'queue' } })
    expect(await tagsOf(local, issue.id)).toEqual({ Queues: 'manual' })
  })

  it('removing the word on update removes the rule and its assignments', async () => {
    const local = await createTestApp('rules-clear')
    const issue = await createIssue(local, { title: 'Payment declined' })
    const tag = await createTag(local, { name: 'Declines', match_word: 'declined' })
    expect(await tagsOf(local, issue.id)).toEqual({ Declines: 'rule' })
    const response = await call('PUT', 'tags', { query: { app: local }, body: { id: tag.id, name: 'Declines' } })
    expect(response.body.rules).toEqual([])
    expect(response.body.issue_count).toBe(0)
    expect(await tagsOf(local, issue.id)).toEqual({})
  })
})

describe('tags: update (seed §4.2)', () => {
  it('takes the id from the body or the query, and is a full replace', async () => {
    const tag = await createTag(app, { name: 'Replace me', color: '#ff0000', icon: 'bug' })
    const viaBody = await call('PUT', 'tags', { query: q(), body: { id: tag.id, name: 'Replaced' } })
    expect(viaBody.status).toBe(200)
    expect(viaBody.body).toMatchObject({ id: tag.id, name: 'Replaced', color: '#64748b', icon: 'tag', created_at: tag.created_at })
    const viaQuery = await call('PATCH', 'tags', { query: { ...q(), id: tag.id }, body: { name: 'Replaced again', color: '#00FF00' } })
    expect(viaQuery.status).toBe(200)
    expect(viaQuery.body).toMatchObject({ id: tag.id, name: 'Replaced again', color: '#00ff00' })
    expect((await listTags(app)).find((t) => t.id === tag.id)).toEqual(viaQuery.body)
  })

  it('allows renaming a tag to a different case of its own name', async () => {
    const tag = await createTag(app, { name: 'casing' })
    const response = await call('PUT', 'tags', { query: q(), body: { id: tag.id, name: 'CASING' } })
    expect(response.status).toBe(200)
    expect(response.body.name).toBe('CASING')
  })

  it('rejects a rename onto another tag’s name with 422 and changes nothing', async () => {
    const a = await createTag(app, { name: 'Taken' })
    const b = await createTag(app, { name: 'Other', color: '#123456' })
    const response = await call('PUT', 'tags', { query: q(), body: { id: b.id, name: 'taken' } })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({ error: 'A tag with this name already exists.' })
    expect((await listTags(app)).find((t) => t.id === b.id)).toMatchObject({ name: 'Other', color: '#123456' })
    expect(a.id).not.toBe(b.id)
  })

  it('answers 404 for an unknown tag', async () => {
    const response = await call('PUT', 'tags', { query: q(), body: { id: 999999, name: 'Ghost' } })
    expect(response.status).toBe(404)
    expect(response.body).toEqual({ error: 'Tag not found.' })
  })

  it.each([[0], [-3], ['0']])('answers 422 for id %j below 1', async (id) => {
    const response = await call('PUT', 'tags', { query: q(), body: { id, name: 'x' } })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({ error: 'A valid tag id is required.' })
  })

  it.each([[undefined], ['abc'], [1.5], [null]])('answers 422 for a missing or invalid id %j', async (id) => {
    const response = await call('PATCH', 'tags', { query: q(), body: { id, name: 'x' } })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({ error: 'A valid tag id is required.' })
  })

  it('validates the body like create', async () => {
    const tag = await createTag(app, { name: 'Validated' })
    const response = await call('PUT', 'tags', { query: q(), body: { id: tag.id, name: 'Validated', icon: 'Bad Icon' } })
    expect(response.status).toBe(422)
    expect(response.body.error).toMatch(/^Tag icon must/)
  })
})

describe('tags: delete (seed §4.2 rule 5)', () => {
  it('deletes the tag and all its assignments, answering {id, deleted: true}', async () => {
    const local = await createTestApp('tags-delete')
    const ruled = await createIssue(local, { title: 'Login throttled' })
    const manual = await createIssue(local, { title: 'Other' })
    const tag = await createTag(local, { name: 'Auth', match_word: 'login' })
    await post('issue-tags', { group_id: manual.id, tag_id: tag.id }, { query: { app: local } })
    const response = await call('DELETE', 'tags', { query: { app: local, id: tag.id } })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ id: tag.id, deleted: true })
    expect(await listTags(local)).toEqual([])
    expect(await tagsOf(local, ruled.id)).toEqual({})
    expect(await tagsOf(local, manual.id)).toEqual({})
    // PlanetScale: one DELETE, the foreign keys cascading to the rule and assignments (issue 18; was 5).
    expectRoundTrips(response, 1, 1)
  })

  it('takes the id from the body too', async () => {
    const tag = await createTag(app, { name: 'Body delete' })
    const response = await call('DELETE', 'tags', { query: q(), body: { id: tag.id } })
    expect(response.body).toEqual({ id: tag.id, deleted: true })
  })

  it('answers 404 for an unknown tag and 422 for an id below 1 or missing', async () => {
    expect(await call('DELETE', 'tags', { query: { ...q(), id: 987654 } })).toMatchObject({ status: 404, body: { error: 'Tag not found.' } })
    expect(await call('DELETE', 'tags', { query: { ...q(), id: 0 } })).toMatchObject({ status: 422, body: { error: 'A valid tag id is required.' } })
    expect(await call('DELETE', 'tags', { query: q() })).toMatchObject({ status: 422, body: { error: 'A valid tag id is required.' } })
  })
})

describe('issue-tags (seed §4.3)', () => {
  it('adds as manual and echoes {groupId, tagId, action}', async () => {
    const issue = await createIssue(app, { title: 'Echo me' })
    const tag = await createTag(app, { name: 'Echo' })
    const response = await post('issue-tags', { group_id: issue.id, tag_id: tag.id }, { query: q() })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ groupId: issue.id, tagId: tag.id, action: 'add' })
    expect(await tagsOf(app, issue.id)).toEqual({ Echo: 'manual' })
    expect((await listTags(app)).find((t) => t.id === tag.id).issue_count).toBe(1)
    expectRoundTrips(response, 1, 2) // PlanetScale: the upsert alone, then the existence read (issue 18; was 4)
  })

  it('turns a rule-made assignment into a manual one, which a later rule rebuild keeps', async () => {
    const local = await createTestApp('issue-tags-convert')
    const issue = await createIssue(local, { title: 'Kafka lag' })
    const tag = await createTag(local, { name: 'Streaming', match_word: 'kafka' })
    expect(await tagsOf(local, issue.id)).toEqual({ Streaming: 'rule' })
    await post('issue-tags', { group_id: issue.id, tag_id: tag.id, action: 'add' }, { query: { app: local } })
    expect(await tagsOf(local, issue.id)).toEqual({ Streaming: 'manual' })
    await call('PUT', 'tags', { query: { app: local }, body: { id: tag.id, name: 'Streaming', match_word: 'nothing-matches' } })
    expect(await tagsOf(local, issue.id)).toEqual({ Streaming: 'manual' })
  })

  it('removes whatever the source, and removing twice is harmless', async () => {
    const local = await createTestApp('issue-tags-remove')
    const issue = await createIssue(local, { title: 'Cron job missed' })
    const tag = await createTag(local, { name: 'Cron', match_word: 'cron' })
    const removed = await post('issue-tags', { group_id: issue.id, tag_id: tag.id, action: 'remove' }, { query: { app: local } })
    expect(removed.body).toEqual({ groupId: issue.id, tagId: tag.id, action: 'remove' })
    expect(await tagsOf(local, issue.id)).toEqual({})
    const again = await post('issue-tags', { group_id: issue.id, tag_id: tag.id, action: 'remove' }, { query: { app: local } })
    expect(again.status).toBe(200)
  })

  it('accepts ids given as numeric strings', async () => {
    const issue = await createIssue(app, { title: 'String ids' })
    const tag = await createTag(app, { name: 'Strings' })
    const response = await post('issue-tags', { group_id: String(issue.id), tag_id: String(tag.id) }, { query: q() })
    expect(response.body).toEqual({ groupId: issue.id, tagId: tag.id, action: 'add' })
  })

  it.each([
    [{ tag_id: 1 }],
    [{ group_id: 1 }],
    [{}],
    [{ group_id: 0, tag_id: 1 }],
    [{ group_id: 1, tag_id: -1 }],
    [{ group_id: 'x', tag_id: 1 }],
    [{ group_id: null, tag_id: 1 }],
  ])('answers 422 when group_id or tag_id is missing or below 1: %j', async (body) => {
    const response = await post('issue-tags', body, { query: q() })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({ error: 'group_id and tag_id are required.' })
  })

  it('answers 422 for an unknown action', async () => {
    const response = await post('issue-tags', { group_id: 1, tag_id: 1, action: 'toggle' }, { query: q() })
    expect(response).toMatchObject({ status: 422, body: { error: 'action must be add or remove.' } })
  })

  it('answers 404 for an unknown issue or tag, writing nothing', async () => {
    const issue = await createIssue(app, { title: 'Exists' })
    const tag = await createTag(app, { name: 'Exists too' })
    const noIssue = await post('issue-tags', { group_id: 999999, tag_id: tag.id }, { query: q() })
    expect(noIssue).toMatchObject({ status: 404, body: { error: 'Issue not found.' } })
    const noTag = await post('issue-tags', { group_id: issue.id, tag_id: 999999 }, { query: q() })
    expect(noTag).toMatchObject({ status: 404, body: { error: 'Tag not found.' } })
    expect(await tagsOf(app, issue.id)).toEqual({})
    expect((await listTags(app)).find((t) => t.id === tag.id).issue_count).toBe(0)
  })

  it('is POST only', async () => {
    const response = await get('issue-tags', { query: q() })
    expect(response).toMatchObject({ status: 405, body: { error: 'POST required.' } })
    expect(response.headers.get('allow')).toBe('POST')
  })
})

describe('tags: auth, methods and application scope', () => {
  it('requires the token when one is set, for reads and writes', async () => {
    const env = { SERVICE_TOKEN: 'tag-token' }
    expect((await get('tags', { query: q(), env })).status).toBe(401)
    expect((await post('tags', { name: 'Locked' }, { query: q(), env })).status).toBe(401)
    expect((await post('issue-tags', { group_id: 1, tag_id: 1 }, { query: q(), env })).status).toBe(401)
    expect((await get('tags', { query: q(), env, headers: { Authorization: 'Bearer tag-token' } })).status).toBe(200)
  })

  it('answers other methods with 405 naming the five', async () => {
    const response = await call('OPTIONS', 'tags', { query: q() })
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS')
  })

  it('keeps each application’s tags apart', async () => {
    const other = await createTestApp('tags-other')
    await createTag(other, { name: 'Only here' })
    expect((await listTags(app)).some((tag) => tag.name === 'Only here')).toBe(false)
    expect((await listTags(other)).map((tag) => tag.name)).toEqual(['Only here'])
  })

  it('answers 422 for an unknown application', async () => {
    const response = await get('tags', { query: { app: 'no-such-app' } })
    expect(response).toMatchObject({ status: 422, body: { error: "Application 'no-such-app' was not found." } })
  })
})
