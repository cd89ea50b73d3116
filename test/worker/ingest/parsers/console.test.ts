import { describe, expect, it } from 'vitest'
import { consoleParser } from '../../../../worker/ingest/parsers/console.ts'
import { MTIME, NOW, fixtureBytes, parseText } from '../parse-text.ts'

describe('consoleParser', () => {
  const events = parseText(fixtureBytes('console.log'), 'console.log')

  it('reads the fixture: orphans, the three header shapes, continuations', () => {
    expect(events.map((e) => [e.occurredAt, e.severity, e.body])).toEqual([
      [MTIME, 'INFO', 'supervisor starting up'],
      [MTIME, 'INFO', 'preflight ok'],
      [
        '2026-08-20 17:15:30',
        'ERROR',
        'redis: connection refused (127.0.0.1:6379)\nat Redis.connect (/srv/worker/node_modules/ioredis/built/Redis.js:120:15)',
      ],
      ['2026-08-20 17:16:00', 'WARNING', 'queue depth 41200 exceeds soft limit 20000'],
      ['2026-08-20 10:15:30', 'ERROR', 'worker exited with 137'],
      ['2026-08-20 10:17:12', 'INFO', 'drained 41200 jobs in 72s'],
      [NOW, 'INFO', 'heartbeat'],
    ])
    expect(events.every((e) => e.logType === 'console' && e.environment === 'console' && e.context === null)).toBe(true)
  })

  it('keeps a bare level after an ISO time (the reference once graded these INFO)', () => {
    const text = [
      '2026-08-20T10:15:30-07:00 ERROR  redis: connection refused (127.0.0.1:6379)',
      '2026-08-20T10:16:00-07:00 WARN   queue depth 41200 exceeds soft limit 20000',
      '2026-08-20T10:17:12-07:00 INFO   drained 41200 jobs in 72s',
    ].join('\n')
    const parsed = parseText(text, 'worker.log')
    expect(parsed.map((e) => e.severity)).toEqual(['ERROR', 'WARNING', 'INFO'])
    expect(parsed[0]!.occurredAt).toBe('2026-08-20 17:15:30')
  })

  it.each([
    ['[2026-08-20 10:15:30] error: boom', 'ERROR', 'boom', '2026-08-20 10:15:30'],
    ['[2026-08-20T10:15:30Z] WARN - disk', 'WARNING', 'disk', '2026-08-20 10:15:30'],
    ['[2026-08-20 10:15:30] FATAL: gone', 'ERROR', 'gone', '2026-08-20 10:15:30'],
    ['[2026-08-20 10:15:30] production.ERROR: laravel-ish', 'INFO', 'production.ERROR: laravel-ish', '2026-08-20 10:15:30'],
    ['2026-08-20 10:15:30 [ERROR] worker exited with 137', 'ERROR', 'worker exited with 137', '2026-08-20 10:15:30'],
    ['2026-01-01T10:15:30+10:00 ERROR Worker crashed', 'ERROR', 'Worker crashed', '2026-01-01 00:15:30'],
    ['2026-01-01 10:15:30,123 TRACE: tick', 'DEBUG', 'tick', '2026-01-01 10:15:30'],
    ['[not a time] ERROR: still a header', 'ERROR', 'still a header', NOW],
    ['  [2026-08-20 10:15:30] notice: indented', 'NOTICE', 'indented', '2026-08-20 10:15:30'],
  ])('reads %j', (line, severity, body, occurredAt) => {
    expect(parseText(line, 'worker.log', { parser: consoleParser })[0]).toMatchObject({ severity, body, occurredAt })
  })

  it('makes every line before a header a standalone INFO event stamped with the file mtime', () => {
    const parsed = parseText('no timestamp here at all\nnor here\n', 'worker.log')
    expect(parsed.map((e) => [e.occurredAt, e.severity, e.body])).toEqual([
      [MTIME, 'INFO', 'no timestamp here at all'],
      [MTIME, 'INFO', 'nor here'],
    ])
  })

  it('claims every file', () => {
    expect(consoleParser.supports('anything.bin', '')).toBe(true)
  })
})
