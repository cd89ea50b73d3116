import { describe, expect, it } from 'vitest'
import { laravelHorizonParser, laravelParser } from '../../../../worker/ingest/parsers/laravel.ts'
import { MTIME, NOW, fixtureBytes, parseText } from '../parse-text.ts'

describe('laravelParser', () => {
  const events = parseText(fixtureBytes('laravel.log'), 'laravel.log')

  it('reads one event per header with severity, environment and the bare time kept verbatim', () => {
    expect(events.map((e) => [e.occurredAt, e.severity, e.environment, e.logType])).toEqual([
      ['2026-08-20 09:14:02', 'ERROR', 'production', 'laravel'],
      ['2026-08-20 09:15:10', 'WARNING', 'production', 'laravel'],
      ['2026-08-20 09:16:00', 'ERROR', 'production', 'laravel'],
      ['2026-08-20 09:17:00', 'ERROR', 'production', 'laravel'],
      ['2026-08-20 09:18:30', 'INFO', 'local', 'laravel'],
      ['2026-08-20 09:19:00', 'DEBUG', 'production', 'laravel'],
    ])
  })

  it('appends continuation lines verbatim, blank lines included', () => {
    expect(events[0]!.body.split('\n').slice(1, 3)).toEqual([
      '[stacktrace]',
      "#0 /app/vendor/laravel/framework/src/Illuminate/Database/Connection.php(783): Illuminate\\\\Database\\\\Connection->runQueryCallback('insert into `in...', Array, Object(Closure))",
    ])
    expect(events[0]!.body.endsWith('#4 {main}\n"} ')).toBe(true)
    expect(events[4]!.body).toBe('Gateway unavailable\n\nline one of context — ünïcödé\nline two of context')
    expect(events[1]!.body).toBe('Payment gateway slow: 2300ms for café «Zürich» 🚀')
  })

  it('keeps the trailing JSON context in the body and has no structured context', () => {
    expect(events[2]!.body).toBe('Order 123 failed for a@x.test {"request_id":"b0f4a4ed-3ae5-4f18-8e06-4b8d459162ae"}')
    expect(events.every((e) => e.context === null)).toBe(true)
  })

  it('drops lines before the first header and never re-formats the time', () => {
    const parsed = parseText('orphan line\n[2026-01-01 10:15:30] production.ERROR: Boom\n', 'laravel.log', {
      parser: laravelParser,
    })
    expect(parsed).toEqual([
      expect.objectContaining({ occurredAt: '2026-01-01 10:15:30', body: 'Boom', byteStart: 12, byteEnd: 57 }),
    ])
    expect([NOW, MTIME]).not.toContain(parsed[0]!.occurredAt)
  })

  it('requires an upper-case level and a space-free environment token', () => {
    const parsed = parseText('[2026-01-01 10:15:30] production.error: lower\n[2026-01-01 10:15:31] my env.ERROR: x\n', 'laravel.log', {
      parser: laravelParser,
    })
    expect(parsed).toEqual([])
  })

  it.each([
    ['laravel.log', '[2026-08-20 03:00:02] production.ERROR: x', true, false],
    ['storage/logs/laravel-2026-08-20.log', '\n\n[2026-08-20 03:00:02] local.INFO: x', true, false],
    ['horizon.log', '[2026-08-20 03:00:02] production.ERROR: Job failed after 3 tries', false, true],
    ['Horizon-Worker.log', '[2026-08-20 03:00:02] production.ERROR: x', false, true],
    ['horizon.log', '[2026-08-20 03:00:01][7f3a1c2e] Failed: App\\Jobs\\Thing', false, false],
    ['laravel.log', 'not a header\n[2026-08-20 03:00:02] production.ERROR: x', false, false],
  ])('claims %s (plain %s, horizon %s)', (name, sample, plain, horizon) => {
    expect(laravelParser.supports(name, sample)).toBe(plain)
    expect(laravelHorizonParser.supports(name, sample)).toBe(horizon)
  })

  it('keeps a message containing U+2028 or a stray \\r on its header line', () => {
    const parsed = parseText('[2026-01-01 10:15:30] production.ERROR: a\u2028b\rc\n', 'laravel.log')
    expect(parsed.map((e) => e.body)).toEqual(['a\u2028b\rc'])
  })

  it('gives the horizon variant the horizon log_type', () => {
    const [event] = parseText('[2026-08-20 03:00:02] production.ERROR: Job failed after 3 tries\n', 'horizon.log')
    expect(event).toMatchObject({ logType: 'horizon', severity: 'ERROR', environment: 'production' })
  })
})
