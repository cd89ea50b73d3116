import { describe, expect, it } from 'vitest'
import { PARSERS, parserById, selectParser } from '../../../worker/digest/select-parser.ts'

const LARAVEL = '[2026-08-20 03:00:02] production.ERROR: Job failed after 3 tries\n'
const BRACKETED = '[2026-08-20 03:00:01][7f3a1c2e] Processing: App\\Jobs\\SyncCustomer\n'
const PROGRESS = '  2026-08-20 04:00:00 App\\Jobs\\SyncCustomer ........ RUNNING\n'
const NGINX = '10.0.0.1 - - [01/Jan/2026:12:00:00 +0000] "GET /health HTTP/1.1" 200 21 "-" "monitor/1.0"\n'
const JSONL = '{"level":30,"msg":"up"}\n'
const CONSOLE = '2026-08-20 03:00:02 ERROR supervisor restarted the pool\n'

describe('selectParser', () => {
  it.each([
    ['horizon.log', LARAVEL, 'laravel-horizon', 'horizon'],
    ['horizon.log', BRACKETED, 'horizon-console', 'horizon'],
    ['logs/horizon-out.log', PROGRESS, 'horizon-console', 'horizon'],
    ['horizon.log', CONSOLE, 'console', 'console'],
    ['access.log', NGINX, 'nginx-access', 'nginx_access'],
    ['nginx/site.log', NGINX, 'nginx-access', 'nginx_access'], // by content: the name is only a hint now
    ['nginx-site.log', NGINX, 'nginx-access', 'nginx_access'],
    ['site.log', NGINX, 'nginx-access', 'nginx_access'],
    ['laravel.log', LARAVEL, 'laravel', 'laravel'],
    ['incoming/shop/laravel-2026-08-20.log', `\n${LARAVEL}`, 'laravel', 'laravel'],
    ['access.log', LARAVEL, 'laravel', 'laravel'],
    ['app.jsonl', JSONL, 'json-lines', 'json'],
    ['horizon.log', JSONL, 'json-lines', 'json'],
    ['worker.log', CONSOLE, 'console', 'console'],
    ['empty.log', '', 'console', 'console'],
  ])('picks for %s (%j) the %s parser', (name, sample, id, logType) => {
    const parser = selectParser(name, sample)
    expect(parser.id).toBe(id)
    expect(parser.logType).toBe(logType)
  })

  it.each([
    // issue 10: the first line is not a format's line, the rest of the sample is
    ['horizon.log', 'Horizon started successfully.\n[2021-10-16 01:26:15][a3d2] Failed:     App\\Jobs\\X\n', 'horizon-console'],
    ['worker.log', 'Horizon started successfully.\n  2023-07-22 16:13:34 App\\Jobs\\T ........ 1s DONE\n', 'horizon-console'],
    ['laravel.log', 'PHP Warning:  something\n\n[2026-08-20 03:00:02] production.ERROR: x\n', 'laravel'],
    ['app.log', '[2025-06-09T19:28:44.123456+00:00] production.error: x\n', 'laravel'],
    ['error.log', '2024/05/01 10:00:00 [error] 1234#0: *5 boom, client: 1.2.3.4\n', 'nginx-error'],
    ['error.log', '[Wed May 01 10:00:00.123456 2024] [core:error] [pid 123:tid 456] AH00126: x\n', 'apache-error'],
    ['error_log', '[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok\n', 'apache-error'],
    // a console log that quotes one Laravel line stays a console log
    ['worker.log', `${'2026-08-20 03:00:02 INFO tick\n'.repeat(5)}[2026-08-20 03:00:02] production.ERROR: quoted\n`, 'console'],
    // a Laravel event with previous exceptions is one header among bracketed lines that are not times
    ['laravel.log', '[2026-08-20 03:00:02] production.ERROR: x\n[stacktrace]\n#0 {main}\n[previous exception] [object] (A(code: 0): y)\n[previous exception] [object] (B(code: 0): z)\n', 'laravel'],
  ])('looks past the first line: %s %j is %s', (name, sample, id) => {
    expect(selectParser(name, sample).id).toBe(id)
  })

  it('ignores a byte-order mark at the start of the sample', () => {
    expect(selectParser('laravel.log', `\uFEFF${LARAVEL}`).id).toBe('laravel')
  })

  it('keeps the console parser last, as it claims what no other does', () => {
    expect(PARSERS.map((p) => p.id)).toEqual([
      'laravel-horizon',
      'horizon-console',
      'nginx-access',
      'nginx-error',
      'apache-error',
      'laravel',
      'json-lines',
      'console',
    ])
  })
})

describe('parserById', () => {
  it('finds every built-in parser by its id and nothing else', () => {
    for (const parser of PARSERS) expect(parserById(parser.id)).toBe(parser)
    expect(parserById('horizon')).toBeUndefined()
  })
})
