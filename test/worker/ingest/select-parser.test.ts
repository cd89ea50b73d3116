import { describe, expect, it } from 'vitest'
import { PARSERS, parserById, selectParser } from '../../../worker/ingest/select-parser.ts'

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
    ['nginx/site.log', NGINX, 'console', 'console'], // only the base name counts, as in the reference
    ['nginx-site.log', NGINX, 'nginx-access', 'nginx_access'],
    ['site.log', NGINX, 'console', 'console'],
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

  it('ignores a byte-order mark at the start of the sample', () => {
    expect(selectParser('laravel.log', `\uFEFF${LARAVEL}`).id).toBe('laravel')
  })

  it('keeps the console parser last, as it claims everything', () => {
    expect(PARSERS.map((p) => p.id)).toEqual([
      'laravel-horizon',
      'horizon-console',
      'nginx-access',
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
