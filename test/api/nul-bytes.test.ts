import { beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, get } from './helpers/api.ts'
import { ok, upload } from './ingestion-helpers.ts'

/**
 * Issue 10 defect 2: one event holding a NUL byte (a real Laravel log with a dumped JPEG does this) gave a
 * 500 on neon and blocked every later upload of the application; libsql cut the text at the NUL. Whatever
 * the parsers produce is stored and returned the same on all four drivers — NUL, and U+E000, the character
 * the neon driver escapes it with, included.
 */
const NUL_LINE = '[2024-05-01 10:00:00] production.ERROR: a \u0000 b\n'
const DUMP = [
  '[2024-05-01 11:00:00] production.ERROR: Image \ue000 upload failed {"exception":"[object] (RuntimeException(code: 0): bad \\u0000 byte at /app/app/Image.php:12)"}',
  '[stacktrace]',
  '#0 /app/app/Image.php(12): read("\u0000\u0000JFIF\ue0000\ue0001")',
  '#1 {main}',
  '',
].join('\n')

describe('NUL bytes in log events', () => {
  let app: string
  beforeAll(async () => {
    app = await createTestApp('nul-bytes')
  })

  it('stores and returns an event with a NUL byte exactly, and later uploads still import', async () => {
    const first = await upload(app, 'nul/first.log', NUL_LINE)
    expect(first.status, first.text).toBe(200)
    const [issue] = (await ok(get('issues', { query: { app, include_context: 'true' } }))).data
    expect(issue).toMatchObject({ title: 'a \u0000 b', sample_message: 'a \u0000 b', count: 1 })
    const detail = await ok(get('error', { query: { app, id: issue.id } }))
    expect(detail.data).toMatchObject({ title: 'a \u0000 b', sample_message: 'a \u0000 b' })
    const [occurrence] = detail.occurrences
    const source = await ok(get('source', { query: { app, occurrence: occurrence.id } }))
    expect(source.content).toBe(NUL_LINE)

    const second = await upload(app, 'nul/second.log', '[2024-05-02 10:00:00] production.ERROR: after the NUL\n')
    expect(second.status, second.text).toBe(200)
    const again = await upload(app, 'nul/third.log', NUL_LINE.replace('05-01', '05-03'))
    expect(again.status, again.text).toBe(200)
    const titles = (await ok(get('issues', { query: { app, sort: 'oldest' } }))).data.map((i: { title: string; count: number }) => [i.title, i.count])
    expect(titles).toEqual([['a \u0000 b', 2], ['after the NUL', 1]])
  })

  it('keeps NUL and U+E000 in messages, exception text, stacks and context, and finds them by q', async () => {
    expect((await upload(app, 'nul/dump.log', DUMP)).status).toBe(200)
    const list = await ok(get('issues', { query: { app, q: 'image \ue000 upload' } }))
    expect(list.data).toHaveLength(1)
    const detail = await ok(get('error', { query: { app, id: list.data[0].id } }))
    expect(detail.data.title).toBe('Image \ue000 upload failed')
    expect(detail.data.sample_message).toContain('bad \\u0000 byte')
    expect(detail.data.sample_stack).toContain('read("\u0000\u0000JFIF\ue0000\ue0001")')
    const source = await ok(get('source', { query: { app, occurrence: detail.occurrences[0].id } }))
    expect(source.content).toBe(DUMP)
    const byNul = await ok(get('issues', { query: { app, q: '\u0000', sort: 'oldest' } }))
    expect(byNul.data.map((i: { title: string }) => i.title)).toEqual(['a \u0000 b', 'Image \ue000 upload failed'])
    expect((await ok(get('issues', { query: { app, q: '\ue0000' } }))).data.map((i: { title: string }) => i.title)).toEqual(['Image \ue000 upload failed'])
  })
})
