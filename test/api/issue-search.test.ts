import { beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, get } from './helpers/api.ts'
import { createIssue, expectRoundTrips } from './helpers/fixtures.ts'
import { upload } from './ingestion-helpers.ts'

/**
 * Issue 10 defect 1: `q` and `source` are literal, case-insensitive substrings of any length up to
 * SEARCH_MAX_CHARACTERS (200), on every driver. D1 refuses LIKE patterns over 50 bytes ("LIKE or GLOB
 * pattern too complex"), so the search must not be a LIKE; beyond the maximum the answer is a 422.
 */
const LENGTHS = [1, 49, 50, 51, 200]

// 230 characters (code points): non-ASCII letters and an astral emoji, LIKE wildcards and the LIKE escape
// characters, so every prefix tested exercises them. Lower-case ASCII so that an upper-cased needle tests
// case-insensitivity; non-ASCII letters keep their case (SQLite folds ASCII only: docs/deviations.md).
const TITLE = Array.from({ length: 23 }, (_, i) => `ü${i % 10}%_!\\🚀'ab`).join('')
const prefix = (text: string, characters: number) => [...text].slice(0, characters).join('')

// An upload path of 2 segments and 216 characters with `_` (a LIKE wildcard) in it.
const FOLDER = `search_${'m'.repeat(80)}`
const PATH = `${FOLDER}/${'a_b-'.repeat(30)}file.log`

describe('issue search by long text', () => {
  let app: string
  let titled: number
  let ingested: number
  let storedPath: string
  beforeAll(async () => {
    app = await createTestApp('search-length')
    expect([...TITLE].length).toBe(230)
    titled = (await createIssue(app, { title: TITLE })).id
    await createIssue(app, { title: 'A decoy without the text' })
    const uploaded = await upload(app, PATH, '[2026-03-01 10:00:00] production.ERROR: Stored from a long path\n')
    expect(uploaded.status, uploaded.text).toBe(200)
    const list = await get('issues', { query: { app, q: 'Stored from a long path' } })
    ingested = list.body.data[0].id
    const detail = await get('error', { query: { app, id: ingested } })
    storedPath = detail.body.occurrences[0].path
    expect(storedPath.length).toBeGreaterThan(200)
  })

  const ids = (api: string, body: any): number[] => (api === 'groups' ? body.items : body.data).map((issue: { id: number }) => issue.id)

  it.each(['issues', 'groups'])('%s: q of 1, 49, 50, 51 and 200 characters finds the issue (non-ASCII, wildcards literal)', async (api) => {
    for (const length of LENGTHS) {
      const q = prefix(TITLE, length).toUpperCase().replace(/Ü/g, 'ü')
      const response = await get(api, { query: { app, q } })
      expect(response.status, `${length}: ${response.text}`).toBe(200)
      expect(ids(api, response.body), `length ${length}`).toEqual([titled])
      // Still the list's budget (design.md §5): one read — with `q` one statement, the page with its window
      // total (list-issues.ts), so one request on PlanetScale too.
      expectRoundTrips(response, 1, 1)
    }
  })

  it.each(['issues', 'groups'])('%s: wildcards in q match only themselves', async (api) => {
    for (const q of ['%', '%_!', 'ü0%_!\\🚀']) {
      const response = await get(api, { query: { app, q } })
      expect(response.status, response.text).toBe(200)
      expect(ids(api, response.body), q).toEqual([titled])
    }
    const none = await get(api, { query: { app, q: 'ü0_%' } })
    expect(ids(api, none.body)).toEqual([])
  })

  it('source of 1, 49, 50, 51 and 200 characters finds the issue by its file path; wildcards are literal', async () => {
    for (const length of LENGTHS) {
      // The tail of the stored path (`processed/<app>/<module>/<file>`), upper-cased: the file name part.
      const response = await get('issues', { query: { app, source: storedPath.slice(-length).toUpperCase() } })
      expect(response.status, `${length}: ${response.text}`).toBe(200)
      expect(response.body.data.map((issue: { id: number }) => issue.id), `length ${length}`).toEqual([ingested])
    }
    expect((await get('issues', { query: { app, source: 'file%' } })).body.data).toEqual([])
    expect((await get('issues', { query: { app, source: 'a%b' } })).body.data).toEqual([])
  })

  it.each([
    ['issues', 'q'],
    ['groups', 'q'],
    ['issues', 'source'],
    ['groups', 'source'],
  ])('%s: %s of 201 characters is a 422', async (api, name) => {
    const response = await get(api, { query: { app, [name]: prefix(TITLE, 201) } })
    expect(response.status, response.text).toBe(422)
    expect(response.body).toEqual({ error: `${name} must be at most 200 characters.` })
  })
})

describe('q with LIKE wildcards beside letters: each matches only itself', () => {
  // Each pair: the title q names, and a decoy that `_`, `%` or a backslash read as LIKE syntax would also match.
  const PAIRS: [q: string, title: string, decoy: string][] = [
    ['SNAKE_case', 'Bad snake_case_name', 'Bad snakeXcaseXname'],
    ['disk 100% f', 'Disk 100% full', 'Disk 1000 full'],
    ['path\\to', 'Missing path\\to\\file', 'Missing pathtofile'],
  ]
  let app: string
  const ids = new Map<string, number>()
  beforeAll(async () => {
    app = await createTestApp('search-wildcards')
    for (const [, title, decoy] of PAIRS) for (const text of [title, decoy]) ids.set(text, (await createIssue(app, { title: text })).id)
  })

  it.each(PAIRS)('q=%s finds %s and not its decoy', async (q, title) => {
    const response = await get('issues', { query: { app, q } })
    expect(response.status, response.text).toBe(200)
    expect(response.body.data.map((issue: { id: number }) => issue.id)).toEqual([ids.get(title)])
    expect(response.body.meta.total).toBe(1)
    expectRoundTrips(response, 1, 1)
  })
})
