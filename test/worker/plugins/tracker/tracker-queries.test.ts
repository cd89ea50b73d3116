import { describe, expect, it } from 'vitest'
import { nextLink } from '../../../../worker/plugins/tracker/github.ts'
import { issueFilter } from '../../../../worker/plugins/tracker/linear.ts'
import { trackerRateLimited } from '../../../../worker/plugins/tracker/tracker-http.ts'
import { readSyncState, syncStateView } from '../../../../worker/plugins/tracker/tracker-sync-state.ts'

const NONE = { labels: [], assignedToMe: false, assignees: [], teamKey: null, repository: null }

describe('Linear issue filter (reference §4.5: (labels OR assignee) AND team AND updatedAt)', () => {
  it('joins the assignee forms with the labels by OR, and the team and floor by AND', () => {
    expect(issueFilter({ ...NONE, labels: ['loupe'], assignedToMe: true, assignees: ['ada@example.com', 'user-1'], teamKey: 'ENG' }, '2026-01-02T00:00:00.000Z')).toEqual({
      and: [
        {
          or: [
            { labels: { some: { name: { in: ['loupe'] } } } },
            { assignee: { isMe: { eq: true } } },
            { assignee: { email: { in: ['ada@example.com'] } } },
            { assignee: { id: { in: ['user-1'] } } },
          ],
        },
        { team: { key: { eq: 'ENG' } } },
        { updatedAt: { gt: '2026-01-02T00:00:00.000Z' } },
      ],
    })
  })

  it('leaves out what is not configured', () => {
    expect(issueFilter({ ...NONE, teamKey: 'OPS' }, null)).toEqual({ and: [{ team: { key: { eq: 'OPS' } } }] })
  })
})

describe('GitHub Link header (RFC 8288)', () => {
  it.each([
    ['<https://api.github.com/repositories/1/issues?page=2>; rel="next", <https://api.github.com/repositories/1/issues?page=5>; rel="last"', 'https://api.github.com/repositories/1/issues?page=2'],
    ['<https://x/?page=1>; rel="prev", <https://x/?page=1>; rel="first"', null],
    ['<https://x/?page=3>; rel="next last"', 'https://x/?page=3'],
    [null, null],
    ['garbage', null],
  ])('%s → %s', (header, next) => {
    expect(nextLink(header)).toBe(next)
  })
})

describe('rate-limit answers', () => {
  it('waits until the reset, within 1 s and 1 h, or what retry-after says', () => {
    const now = 1_000_000
    expect(trackerRateLimited('Linear', now + 30_500, null, now).retryAfterSeconds).toBe(31)
    expect(trackerRateLimited('Linear', now - 5000, null, now).retryAfterSeconds).toBe(1)
    expect(trackerRateLimited('GitHub', now + 10 * 3_600_000, null, now).retryAfterSeconds).toBe(3600)
    expect(trackerRateLimited('GitHub', null, 60, now)).toMatchObject({ retryAfterSeconds: 60, message: 'GitHub rate limit reached. Try again shortly.' })
    expect(trackerRateLimited('GitHub', null, null, now).retryAfterSeconds).toBe(60)
  })
})

describe('sync state', () => {
  it('starts as an empty backfill and survives a damaged value', () => {
    expect(syncStateView(readSyncState(null))).toEqual({ phase: 'backfill', backfill_complete: false, synced_through: null, last_synced_at: null })
    expect(readSyncState('{not json').cursor).toBeNull()
    expect(syncStateView(readSyncState('{"backfill_complete":true,"synced_through":"2026-01-01T00:00:00.000Z"}')).phase).toBe('incremental')
  })
})
