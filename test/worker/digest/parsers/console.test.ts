import { describe, expect, it } from 'vitest'
import { consoleParser } from '../../../../worker/digest/parsers/console.ts'
import { MTIME, NOW, detectScore, fixtureBytes, parseText } from '../parse-text.ts'

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

  it.each([
    ['2026-08-20 10:15:30 supervisor restarted the pool', 'INFO', 'supervisor restarted the pool', '2026-08-20 10:15:30'],
    ['2026-08-20 10:15:30 error handling improved', 'INFO', 'error handling improved', '2026-08-20 10:15:30'], // prose, not a level
    ['2026-08-20T10:15:30.123456+02:00 error: disk full', 'ERROR', 'disk full', '2026-08-20 08:15:30'],
    ['2026-08-20T10:15:30Z [warn] slow', 'WARNING', 'slow', '2026-08-20 10:15:30'],
    ['<34>1 2026-08-20T10:15:30.003Z web1 app - - started', 'INFO', 'web1 app - - started', '2026-08-20 10:15:30'],
    ['Aug 20 10:15:30 web1 sshd[812]: error: maximum authentication attempts', 'ERROR', 'sshd[812]: error: maximum authentication attempts', '2026-08-20 10:15:30'],
    ['Aug  2 03:04:05 web1 cron[9]: job ran', 'INFO', 'cron[9]: job ran', '2026-08-02 03:04:05'],
    ['Dec 31 23:59:59 web1 kernel: late', 'INFO', 'kernel: late', '2025-12-31 23:59:59'], // after the file's mtime: last year
    ['[2021-10-03 00:22:20 $46.0]\tINFO\tServer is reloading all workers now', 'INFO', 'Server is reloading all workers now', '2021-10-03 00:22:20'],
  ])('keeps the own time of %j', (line, severity, body, occurredAt) => {
    expect(parseText(line, 'worker.log', { parser: consoleParser })[0]).toMatchObject({ severity, body, occurredAt })
  })

  it('makes every line before a header a standalone INFO event stamped with the file mtime', () => {
    const parsed = parseText('no timestamp here at all\nnor here\n', 'worker.log')
    expect(parsed.map((e) => [e.occurredAt, e.severity, e.body])).toEqual([
      [MTIME, 'INFO', 'no timestamp here at all'],
      [MTIME, 'INFO', 'nor here'],
    ])
  })

  it('scores the lines that carry a time of their own (what competes with the specific formats)', () => {
    expect(detectScore(consoleParser, 'console.log', new TextDecoder().decode(fixtureBytes('console.log')))).toBe(4)
    expect(detectScore(consoleParser, 'x.log', '[pending] heartbeat\nplain words\n')).toBe(0)
  })
})
