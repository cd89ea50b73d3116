import { describe, expect, it } from 'vitest'
import { laravelHorizonParser, laravelParser } from '../../../../worker/digest/parsers/laravel.ts'
import { MTIME, NOW, detectScore, fixtureBytes, parseText } from '../parse-text.ts'

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

  it('reads any case of the level word and text before `env.LEVEL` (log-viewer reads both)', () => {
    const parsed = parseText('[2026-01-01 10:15:30] production.error: lower\n[2026-01-01 10:15:31] my env.ERROR: x\n', 'laravel.log', {
      parser: laravelParser,
    })
    expect(parsed.map((e) => [e.severity, e.environment, e.body])).toEqual([
      ['ERROR', 'production', 'lower'],
      ['ERROR', 'env', 'my x'],
    ])
  })

  it.each([
    ['laravel.log', '[2026-08-20 03:00:02] production.ERROR: x', 1.5, 0],
    ['storage/logs/laravel-2026-08-20.log', '\n\n[2026-08-20 03:00:02] local.INFO: x', 1.5, 0],
    ['app.log', '[2026-08-20 03:00:02] local.INFO: x\n[2026-08-20 03:00:03] local.INFO: y', 2, 0],
    ['horizon.log', '[2026-08-20 03:00:02] production.ERROR: Job failed after 3 tries', 1, 1.5],
    ['Horizon-Worker.log', '[2026-08-20 03:00:02] production.ERROR: x', 1, 1.5],
    ['horizon.log', '[2026-08-20 03:00:01][7f3a1c2e] Failed: App\\Jobs\\Thing', 0, 0],
    ['laravel.log', 'not a header\n[2026-08-20 03:00:02] production.ERROR: x', 1.5, 0], // beyond the first line
  ])('scores %s: plain %s, horizon %s', (name, sample, plain, horizon) => {
    expect(detectScore(laravelParser, name, sample)).toBe(plain)
    expect(detectScore(laravelHorizonParser, name, sample)).toBe(horizon)
  })

  it('keeps a message containing U+2028 or a stray \\r on its header line', () => {
    const parsed = parseText('[2026-01-01 10:15:30] production.ERROR: a\u2028b\rc\n', 'laravel.log')
    expect(parsed.map((e) => e.body)).toEqual(['a\u2028b\rc'])
  })

  it('gives the horizon variant the horizon log_type', () => {
    const [event] = parseText('[2026-08-20 03:00:02] production.ERROR: Job failed after 3 tries\n', 'horizon.log')
    expect(event).toMatchObject({ logType: 'horizon', severity: 'ERROR', environment: 'production' })
  })

  // The shapes of opcodesio/log-viewer's LaravelLogsTest, each a header that starts its own event.
  describe('header variants (log-viewer test vectors)', () => {
    const one = (line: string) => parseText(`${line}\n`, 'laravel.log', { parser: laravelParser })

    it('reads the default format', () => {
      expect(one('[2022-08-25 11:16:17] local.DEBUG: Example log entry for the level debug')).toEqual([
        expect.objectContaining({ occurredAt: '2022-08-25 11:16:17', severity: 'DEBUG', environment: 'local', body: 'Example log entry for the level debug' }),
      ])
    })

    it.each([
      ['[2022-08-25 11:16:17.125000] local.DEBUG: x', '2022-08-25 11:16:17'], // microseconds dropped
      ['[2022-08-25 11:16:17.125000+02:00] local.DEBUG: x', '2022-08-25 09:16:17'], // offset converted
      ['[2022-08-25 11:16:17.125000+03:00] local.DEBUG: x', '2022-08-25 08:16:17'],
      ['[2025-06-09T19:28:44.123456+00:00] production.ERROR: x', '2025-06-09 19:28:44'], // Monolog's default format
      ['[2025-06-09T19:28:44-05:30] production.ERROR: x', '2025-06-10 00:58:44'],
      ['[2025-06-09T19:28:44Z] production.ERROR: x', '2025-06-09 19:28:44'],
      ['[2025-06-09T19:28:44] production.ERROR: x', '2025-06-09 19:28:44'], // a bare ISO time is kept
    ])('reads the time of %j as %s UTC', (line, occurredAt) => {
      expect(one(line)[0]!.occurredAt).toBe(occurredAt)
    })

    it.each([
      ['INFO', 'INFO'],
      ['DEBUG', 'DEBUG'],
      ['ERROR', 'ERROR'],
      ['WARNING', 'WARNING'],
      ['CRITICAL', 'CRITICAL'],
      ['ALERT', 'ALERT'],
      ['EMERGENCY', 'EMERGENCY'],
      ['NOTICE', 'NOTICE'],
      ['info', 'INFO'],
      ['iNfO', 'INFO'],
      ['error', 'ERROR'],
    ])('reads the level %s as %s', (level, severity) => {
      expect(one(`[2022-08-25 11:16:17] local.${level}: Example log entry`)[0]!.severity).toBe(severity)
    })

    it('puts text between the time and env.LEVEL in front of the message, as log-viewer does', () => {
      const [event] = one('[2022-08-25 11:16:17] some additional text [!@#$%^&] and characters // !@#$ local.DEBUG: Example log entry for the level debug')
      expect(event).toMatchObject({
        environment: 'local',
        severity: 'DEBUG',
        body: 'some additional text [!@#$%^&] and characters // !@#$ Example log entry for the level debug',
      })
    })

    it('reads a header without a message, and one with two trailing JSON values', () => {
      expect(one('[2022-11-07 17:51:33] production.ERROR: ')[0]).toMatchObject({ occurredAt: '2022-11-07 17:51:33', severity: 'ERROR', body: '' })
      expect(one('[2023-08-16 14:00:25] testing.INFO: Test message. ["one","two"] {"memory_usage":"78 MB","process_id":1234}')[0]).toMatchObject({
        environment: 'testing',
        body: 'Test message. ["one","two"] {"memory_usage":"78 MB","process_id":1234}',
      })
    })

    it('starts a new event at every variant, so none is swallowed as a continuation', () => {
      const text = [
        '[2025-06-09T19:28:44.123456+00:00] production.ERROR: one',
        '#0 /app/a.php(1): x()',
        '[2025-06-09 19:28:45] production.error: two',
        '[2025-06-09 19:28:46.5] worker 3 production.WARNING: three',
        '[2025-06-09 19:28:47] prod.NOTICE: four',
      ].join('\n')
      expect(parseText(text, 'laravel.log').map((e) => [e.occurredAt, e.severity, e.body])).toEqual([
        ['2025-06-09 19:28:44', 'ERROR', 'one\n#0 /app/a.php(1): x()'],
        ['2025-06-09 19:28:45', 'ERROR', 'two'],
        ['2025-06-09 19:28:46', 'WARNING', 'worker 3 three'],
        ['2025-06-09 19:28:47', 'NOTICE', 'four'],
      ])
    })

    it('does not take a bracketed non-Laravel line for a header', () => {
      expect(one('[2022-08-25 11:16:17] no level here')).toEqual([])
      expect(one('[2022-08-25 11:16:17] local.VERBOSE: unknown level')).toEqual([])
      expect(one('[previous exception] [object] (PDOException(code: 1049): x')).toEqual([])
    })
  })
})
