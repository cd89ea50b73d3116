import { describe, expect, it } from 'vitest'
import { SEVERITIES } from '../../shared/constants.ts'
import { createTestApp, get } from './helpers/api.ts'
import { allowSeverities, appDatabase, bucket, laravelLines, ok, upload } from './ingestion-helpers.ts'
import laravel from '../fixtures/logs/reference/laravel.log?raw'

async function seedFiles(app: string, count: number) {
  for (let i = 0; i < count; i++) await upload(app, `f/file-${String(i).padStart(2, '0')}.log`, laravelLines(1, { from: i }))
  const db = await appDatabase(app)
  const rows = await db.rows<{ id: number }>(`SELECT id FROM ${db.t.sourceFiles} ORDER BY path`)
  for (const [i, row] of rows.entries()) {
    await db.db.execute({ sql: `UPDATE ${db.t.sourceFiles} SET imported_at = ? WHERE id = ?`, args: [`2026-05-01 00:00:${String(i).padStart(2, '0')}`, row.id] })
  }
}

const channels = (body: { data: { channel: string }[] }) => body.data.map((file) => file.channel)

describe('sources (reference §3.1)', { timeout: 60_000 }, () => {
  it('pages source files newest import first, 12 per page by default', async () => {
    const app = await createTestApp('sources-pages')
    await seedFiles(app, 13)
    const first = await get('sources', { query: { app } })
    expect(first.status).toBe(200)
    expect(first.roundTrips).toBeLessThanOrEqual(2)
    expect(first.body.meta).toEqual({ total: 13, page: 1, limit: 12, pages: 2 })
    expect(channels(first.body)).toEqual(Array.from({ length: 12 }, (_, i) => `file-${String(12 - i).padStart(2, '0')}.log`))
    expect(first.body.data[0]).toMatchObject({ module_name: 'F', module_slug: 'f', occurrence_count: 1, log_type: 'laravel' })
    const second = await ok(get('sources', { query: { app, page: 2 } }))
    expect(channels(second)).toEqual(['file-00.log'])
    const small = await ok(get('sources', { query: { app, page: 3, limit: 5 } }))
    expect(small.meta).toEqual({ total: 13, page: 3, limit: 5, pages: 3 })
    expect(channels(small)).toEqual(['file-02.log', 'file-01.log', 'file-00.log'])
    expect((await ok(get('sources', { query: { app, page: 9 } }))).data).toEqual([])
  })

  it('rejects out-of-range page and limit with 422', async () => {
    const app = await createTestApp('sources-range')
    for (const [query, message] of [
      [{ limit: 0 }, 'limit must be an integer from 1 to 100.'],
      [{ limit: 101 }, 'limit must be an integer from 1 to 100.'],
      [{ limit: 'ten' }, 'limit must be an integer from 1 to 100.'],
      [{ page: 0 }, 'page must be an integer from 1 to 1000000.'],
    ] as const) {
      const response = await get('sources', { query: { app, ...query } })
      expect(response.status).toBe(422)
      expect(response.body).toEqual({ error: message })
    }
  })
})

describe('source: the raw bytes of one occurrence (reference §3.1)', { timeout: 60_000 }, () => {
  it('reads [byte_start, byte_end) of the archived file', async () => {
    const app = await createTestApp('source-bytes')
    await allowSeverities(app, SEVERITIES)
    await upload(app, 'shop/laravel.log', laravel)
    const issues = (await ok(get('issues', { query: { app, limit: 50 } }))).data
    const gateway = issues.find((issue: { title: string }) => issue.title === 'Gateway unavailable')
    const detail = await ok(get('error', { query: { app, id: gateway.id } }))
    const occurrence = detail.occurrences[0]
    const response = await get('source', { query: { app, occurrence: occurrence.id } })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      byte_start: occurrence.byte_start,
      byte_end: occurrence.byte_end,
      path: `processed/${app}/shop/laravel.log`,
      log_type: 'laravel',
      channel: 'laravel.log',
      content: '[2026-01-01 10:02:00] production.WARNING: Gateway unavailable\nline one of context\nline two of context\n',
    })
    const encoded = new TextEncoder().encode(laravel)
    expect(new TextDecoder().decode(encoded.slice(occurrence.byte_start, occurrence.byte_end))).toBe(response.body.content)
  })

  it('answers 404 for an unknown occurrence, 422 without a valid id, 400 once the archive is gone', async () => {
    const app = await createTestApp('source-errors')
    await upload(app, 'shop/laravel.log', laravelLines(1))
    expect(await get('source', { query: { app, occurrence: 999_999 } })).toMatchObject({ status: 404, body: { error: 'Occurrence not found.' } })
    for (const occurrence of ['', 'abc', '0', '-1']) {
      expect((await get('source', { query: { app, occurrence } })).status, occurrence).toBe(422)
    }
    const [issue] = (await ok(get('issues', { query: { app } }))).data
    const occurrence = (await ok(get('error', { query: { app, id: issue.id } }))).occurrences[0]
    await bucket.delete(`processed/${app}/shop/laravel.log`)
    expect(await get('source', { query: { app, occurrence: occurrence.id } })).toMatchObject({
      status: 400,
      body: { error: 'The archived source file is unavailable.' },
    })
  })

  it('returns at most 4 MiB of an event', async () => {
    const app = await createTestApp('source-cap')
    const line = 'x'.repeat(1023)
    const big = `[2026-02-01 00:00:00] production.ERROR: Huge dump\n${`${line}\n`.repeat(5 * 1024)}`
    await upload(app, 'big/huge.log', big)
    const [issue] = (await ok(get('issues', { query: { app } }))).data
    const occurrence = (await ok(get('error', { query: { app, id: issue.id } }))).occurrences[0]
    expect(occurrence.byte_end - occurrence.byte_start).toBe(new TextEncoder().encode(big).length)
    const source = await ok(get('source', { query: { app, occurrence: occurrence.id } }))
    expect(source.content.length).toBe(4 * 1024 * 1024)
    expect(source.content.startsWith('[2026-02-01 00:00:00] production.ERROR: Huge dump\n')).toBe(true)
  })
})
