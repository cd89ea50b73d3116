import { describe, expect, it } from 'vitest'
import { createTestApp, get, post } from './helpers/api.ts'
import { appDatabase, ok, upload } from './ingestion-helpers.ts'
import horizonBracketed from '../fixtures/logs/real/horizon-bracketed.log?raw'
import nginxErrors from '../fixtures/logs/real/nginx-error-emerg.log?raw'
import apacheErrors from '../fixtures/logs/real/apache-error-2.4.log?raw'
import accessProbes from '../fixtures/logs/real/nginx-access-probes.log?raw'
import laragon from '../fixtures/logs/real/laravel-windows-laragon.log?raw'

/**
 * Issue 10, "Parsing real-world logs", through the API on every driver: real files (test/fixtures/logs/real)
 * detected by content, stored with their own times and levels, every line accounted for per file.
 */
type Issue = { id: number; title: string; count: number; severity: string; log_type: string; first_seen: string; last_seen: string }

async function issues(app: string, query: Record<string, string> = {}): Promise<Issue[]> {
  return (await ok(get('issues', { query: { app, sort: 'oldest', limit: '200', ...query } }))).data
}

describe('import-incoming: real-world formats (issue 10)', { timeout: 60_000 }, () => {
  it('reads a Horizon file that begins "Horizon started successfully." as Horizon: failures are ERROR at their own times', async () => {
    const app = await createTestApp('fmt-horizon')
    const result = await ok(upload(app, 'jobs/horizon.log', horizonBracketed))
    expect(result).toMatchObject({ events: 6, groups: 1, by_type: { horizon: 6 } })
    expect(result.file_results).toEqual([
      { path: 'jobs/horizon.log', format: 'horizon', read: 12, stored: 6, skipped: { INFO: 6 }, already_stored: 0, unparseable: 0 },
    ])
    expect(await issues(app)).toEqual([
      expect.objectContaining({
        title: 'Failed: App\\Jobs\\SchedulePodcastsSocialPostsJob',
        severity: 'ERROR',
        log_type: 'horizon',
        count: 6,
        first_seen: '2021-10-16 01:26:15',
        last_seen: '2021-10-16 01:34:29',
      }),
    ])
  })

  it('reads nginx and Apache error logs by content, with their own levels and times', async () => {
    const app = await createTestApp('fmt-errors')
    const nginx = await ok(upload(app, 'web/server.log', nginxErrors))
    expect(nginx.file_results).toEqual([
      { path: 'web/server.log', format: 'nginx_error', read: 18, stored: 13, skipped: { NOTICE: 5 }, already_stored: 0, unparseable: 0 },
    ])
    const apache = await ok(upload(app, 'web/httpd.log', apacheErrors))
    expect(apache).toMatchObject({ events: 24, by_type: { apache_error: 24 } })
    const emergencies = await issues(app, { severity: 'EMERGENCY' })
    expect(emergencies.map((i) => [i.log_type, i.title, i.count, i.first_seen])).toEqual([
      ['nginx_error', 'host not found in upstream "php-fpm-81" in /etc/nginx/sites-available/bbs.liaofeng.test.conf:25', 2, '2023-03-24 13:24:52'],
      ['nginx_error', 'host not found in upstream "php-fpm-80" in /etc/nginx/sites-available/disputes.liaofeng.test.conf:24', 1, '2023-03-24 13:54:46'],
      ...emergencies.slice(2).map((i) => [i.log_type, i.title, i.count, i.first_seen]),
    ])
    expect(emergencies.every((i) => i.log_type === 'nginx_error')).toBe(true)
    const denied = (await issues(app, { q: 'AH01797' }))[0]!
    expect(denied).toMatchObject({ log_type: 'apache_error', severity: 'ERROR', first_seen: '2023-07-09 09:01:03', count: 1 })
  })

  it('detects the format again when a file is read again: a reindex after a parser change uses the new parser', async () => {
    const app = await createTestApp('fmt-reindex')
    await ok(upload(app, 'web/server.log', nginxErrors))
    // What an earlier parser version recorded for this file: console output.
    const db = await appDatabase(app)
    await db.db.batch([{ sql: `UPDATE ${db.t.sourceFiles} SET log_type = 'console'` }, { sql: `UPDATE ${db.t.fileImports} SET parser_id = 'console'` }])
    const result = await ok(post('reindex', {}, { query: { app } }))
    expect(result.file_results).toEqual([
      { path: 'web/server.log', format: 'nginx_error', read: 18, stored: 13, skipped: { NOTICE: 5 }, already_stored: 0, unparseable: 0 },
    ])
    expect((await ok(get('sources', { query: { app } }))).data.map((file: { log_type: string }) => file.log_type)).toEqual(['nginx_error'])
    expect((await issues(app)).every((issue) => issue.log_type === 'nginx_error')).toBe(true)
  })

  it('counts TLS probes and empty request lines in an access log as one issue each', async () => {
    const app = await createTestApp('fmt-probes')
    const result = await ok(upload(app, 'edge/access.log', accessProbes))
    expect(result.file_results).toEqual([
      { path: 'edge/access.log', format: 'nginx_access', read: 22, stored: 8, skipped: { INFO: 14 }, already_stored: 0, unparseable: 0 },
    ])
    const probes = (await issues(app)).filter((i) => i.title.startsWith('HTTP 400 ('))
    expect(probes.map((i) => [i.title, i.count])).toEqual([
      ['HTTP 400 (empty request)', 1],
      ['HTTP 400 (binary request)', 3],
    ])
  })

  it('stores a Windows Laravel exception with its application frame as culprit and a clean stack', async () => {
    const app = await createTestApp('fmt-windows')
    await ok(upload(app, 'shop/laravel.log', laragon))
    const [issue] = await issues(app)
    const detail = (await ok(get('error', { query: { app, id: issue!.id } }))).data
    expect(detail).toMatchObject({
      title: 'Call to undefined method App\\Http\\Controllers\\AnggotaController::edit()',
      exception_class: 'Error',
      source_frame: 'C:\\laragon\\www\\perpustakaan\\public\\index.php:17',
    })
    expect(detail.sample_stack.startsWith('#0 C:\\laragon\\www\\perpustakaan\\vendor\\laravel\\framework\\src\\Illuminate\\Routing\\Route.php(264)')).toBe(true)
    expect(detail.sample_stack.endsWith('#45 {main}')).toBe(true)
    expect(detail.sample_stack).not.toContain('\\\\')
    // skip_vendor drops the Windows vendor frames too, keeping the application's.
    const folded = (await ok(get('error', { query: { app, id: issue!.id, skip_vendor: 'true' } }))).data.sample_stack as string
    expect(folded).not.toContain('\\vendor\\')
    expect(folded).toContain('#44 C:\\laragon\\www\\perpustakaan\\public\\index.php(17)')
  })

  it('starts a new event at every Laravel header variant, times converted to UTC', async () => {
    const app = await createTestApp('fmt-laravel-variants')
    const log = [
      '[2025-06-09T19:28:44.123456+00:00] production.ERROR: Monolog default format',
      '[2025-06-09 21:28:45.5+02:00] production.error: Lower-case level with an offset',
      '[2025-06-09 19:28:46] worker-3 production.ERROR: Text before the env',
      '[2025-06-09T19:28:47] production.CRITICAL: Bare ISO time',
      '',
    ].join('\n')
    const result = await ok(upload(app, 'laravel.log', log))
    expect(result).toMatchObject({ events: 4, groups: 4 })
    expect((await issues(app)).map((i) => [i.first_seen, i.severity, i.title])).toEqual([
      ['2025-06-09 19:28:44', 'ERROR', 'Monolog default format'],
      ['2025-06-09 19:28:45', 'ERROR', 'Lower-case level with an offset'],
      ['2025-06-09 19:28:46', 'ERROR', 'worker-3 Text before the env'],
      ['2025-06-09 19:28:47', 'CRITICAL', 'Bare ISO time'],
    ])
  })

  it('groups messages that differ only in request ids, durations, hex ids or tokens', async () => {
    const app = await createTestApp('fmt-grouping')
    const lines = [
      'Your card was declined (req_8fK2xQ0aLm3ZpQ)',
      'Your card was declined (req_Zz91kLmN0pQrS2)',
      'Your card was declined (req_0pQrS2Zz91kLmN)',
      'Slow query 2497ms',
      'Slow query 88ms',
      'Slow query 1.5s',
      'Build a1b2c3d4e5 failed',
      'Build 9f8e7d6c5b failed',
    ].map((message, i) => `[2026-05-01 10:00:0${i}] production.ERROR: ${message}`)
    await ok(upload(app, 'laravel.log', `${lines.join('\n')}\n`))
    expect((await issues(app)).map((i) => i.count)).toEqual([3, 3, 2])
  })
})
