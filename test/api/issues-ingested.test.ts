import { beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, get, post } from './helpers/api.ts'
import { createTag, tagsOf } from './helpers/fixtures.ts'
import { upload } from './ingestion-helpers.ts'

/**
 * The issue workflow (issue 3) over issues made by importing logs: the filters and detail sections that only
 * ingested issues exercise — occurrences, timeline, `source`, `date`, `has_stack`, `skip_vendor` — and tag
 * rules matching an exception class.
 */
const BILLING_LOG = [
  '[2026-03-01 10:00:00] production.ERROR: Payment capture failed for order 1 {"exception":"[object] (App\\\\Exceptions\\\\GatewayTimeoutException(code: 0): upstream at /app/app/Billing/Gateway.php:88)"}',
  '[stacktrace]',
  '#0 /app/vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php(128): handle()',
  '#1 /app/app/Billing/Gateway.php(88): capture()',
  '[2026-03-02 11:00:00] production.ERROR: Payment capture failed for order 2 {"exception":"[object] (App\\\\Exceptions\\\\GatewayTimeoutException(code: 0): upstream at /app/app/Billing/Gateway.php:88)"}',
  '[stacktrace]',
  '#0 /app/vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php(128): handle()',
  '#1 /app/app/Billing/Gateway.php(88): capture()',
  '[2026-03-02 12:00:00] production.WARNING: Slow refund batch',
  '',
].join('\n')

const WORKER_LOG = '[2026-03-05 08:00:00] production.ERROR: Queue worker crashed\n'

describe('issues made by log import', () => {
  let app: string
  let payment: any
  let refund: any
  let crash: any
  let tagId: number
  beforeAll(async () => {
    app = await createTestApp('ingested')
    tagId = (await createTag(app, { name: 'Gateway', match_word: 'gatewaytimeoutexception' })).id
    expect((await upload(app, 'billing/laravel.log', BILLING_LOG)).status).toBe(200)
    expect((await upload(app, 'worker/worker.log', WORKER_LOG)).status).toBe(200)
    const list = await get('issues', { query: { app, sort: 'oldest' } })
    ;[payment, refund, crash] = list.body.data
  })

  it('groups the two payment failures into one issue with count 2, the latest sample winning', () => {
    expect(payment).toMatchObject({ title: 'Payment capture failed for order 2', count: 2, origin: 'ingested', kind: 'error', log_type: 'laravel', first_seen: '2026-03-01 10:00:00', last_seen: '2026-03-02 11:00:00', has_stack: 1, module_slug: 'billing' })
    expect(payment.exception_class).toBe('App\\Exceptions\\GatewayTimeoutException')
    expect(refund).toMatchObject({ title: 'Slow refund batch', severity: 'WARNING', has_stack: 0 })
    expect(crash).toMatchObject({ title: 'Queue worker crashed', module_slug: 'worker' })
  })

  it('applied the rule through the exception class after the import', async () => {
    expect(await tagsOf(app, payment.id)).toEqual({ Gateway: 'rule' })
    expect(await tagsOf(app, refund.id)).toEqual({})
    const tags = await get('tags', { query: { app } })
    expect(tags.body.data.find((tag: { id: number }) => tag.id === tagId).issue_count).toBe(1)
  })

  it('filters by source: channel exactly, or path containing the text', async () => {
    const titles = async (source: string) => (await get('issues', { query: { app, source, sort: 'oldest' } })).body.data.map((i: { title: string }) => i.title)
    expect(await titles('laravel.log')).toEqual(['Payment capture failed for order 2', 'Slow refund batch'])
    expect(await titles('worker/')).toEqual(['Queue worker crashed'])
    expect(await titles('nothing-like-this')).toEqual([])
  })

  it('filters by the day an occurrence happened', async () => {
    const ids = async (date: string) => (await get('issues', { query: { app, date } })).body.data.map((i: { id: number }) => i.id).sort()
    expect(await ids('2026-03-01')).toEqual([payment.id])
    expect(await ids('2026-03-02')).toEqual([payment.id, refund.id].sort())
    expect(await ids('2026-03-03')).toEqual([])
  })

  it('filters by has_stack, and q finds file paths', async () => {
    expect((await get('issues', { query: { app, has_stack: '1' } })).body.data.map((i: { id: number }) => i.id)).toEqual([payment.id])
    expect((await get('issues', { query: { app, has_stack: 'false' } })).body.meta.total).toBe(2)
    expect((await get('issues', { query: { app, q: 'worker.log' } })).body.data.map((i: { id: number }) => i.id)).toEqual([crash.id])
  })

  it('shows occurrences newest first with their file, the timeline by day, and pages the occurrences', async () => {
    const detail = await get('error', { query: { app, id: payment.id } })
    expect(detail.status).toBe(200)
    expect(detail.body.occurrences.map((o: { occurred_at: string }) => o.occurred_at)).toEqual(['2026-03-02 11:00:00', '2026-03-01 10:00:00'])
    expect(detail.body.occurrences[0]).toMatchObject({ group_id: payment.id, severity: 'ERROR', environment: 'production', occurred_day: '2026-03-02', log_type: 'laravel', channel: 'laravel.log', release: null })
    expect(detail.body.occurrences[0].path).toMatch(/billing\/laravel\.log$/)
    expect(detail.body.occurrences[0].byte_end).toBeGreaterThan(detail.body.occurrences[0].byte_start)
    expect(detail.body.occurrences[0]).toHaveProperty('context_preview')
    expect(detail.body.timeline).toEqual([{ day: '2026-03-01', count: 1 }, { day: '2026-03-02', count: 1 }])
    expect(detail.body.meta).toMatchObject({ total_occurrences: 2, pages: 1 })
    const paged = await get('error', { query: { app, id: payment.id, limit: 1, page: 2 } })
    expect(paged.body.occurrences.map((o: { occurred_at: string }) => o.occurred_at)).toEqual(['2026-03-01 10:00:00'])
    expect(paged.body.meta).toMatchObject({ page: 2, limit: 1, pages: 2 })
    const noContext = await get('error', { query: { app, id: payment.id, include_context: '0' } })
    expect(noContext.body.occurrences[0]).not.toHaveProperty('context_preview')
  })

  it('folds vendor frames out of the stack with skip_vendor', async () => {
    const full = await get('error', { query: { app, id: payment.id } })
    expect(full.body.data.sample_stack).toContain('/vendor/')
    const folded = await get('error', { query: { app, id: payment.id, skip_vendor: 'true' } })
    expect(folded.body.data.sample_stack).not.toContain('/vendor/')
    expect(folded.body.data.sample_stack).toContain('Gateway.php(88)')
    const listed = await get('issues', { query: { app, include_stack: 'true', skip_vendor: 'true', has_stack: 'true' } })
    expect(listed.body.data[0].sample_stack).not.toContain('/vendor/')
  })

  it('regresses a fixed issue to reoccurred when a new occurrence arrives', async () => {
    await post('issue-status', { id: crash.id, status: 'fixed' }, { query: { app } })
    expect((await upload(app, 'worker/worker-2.log', '[2026-03-06 09:00:00] production.ERROR: Queue worker crashed\n')).status).toBe(200)
    const detail = await get('error', { query: { app, id: crash.id } })
    expect(detail.body.data).toMatchObject({ status: 'reoccurred', count: 2 })
    expect(detail.body.status_history[0]).toMatchObject({ from_status: 'fixed', to_status: 'reoccurred', note: 'A new occurrence was detected during log import.', actor: null })
  })
})
