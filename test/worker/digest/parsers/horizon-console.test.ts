import { describe, expect, it } from 'vitest'
import { horizonConsoleParser } from '../../../../worker/digest/parsers/horizon-console.ts'
import { parseLog } from '../../../../worker/digest/parse-log.ts'
import { MTIME, NOW, detectScore, fixtureBytes, parseText } from '../parse-text.ts'

describe('horizonConsoleParser', () => {
  const events = parseText(fixtureBytes('horizon.log'), 'horizon.log')

  it('grades both framings: Failed/FAIL and exception-class bodies are ERROR, the rest INFO', () => {
    expect(events.map((e) => e.severity)).toEqual(['INFO', 'ERROR', 'ERROR', 'INFO', 'INFO', 'ERROR'])
    expect(events.every((e) => e.logType === 'horizon' && e.environment === 'horizon')).toBe(true)
  })

  it('reads the bracketed framing with the trace attached to the exception above it', () => {
    expect(events[0]).toMatchObject({ occurredAt: '2026-08-20 03:00:01', body: 'Processing: App\\Jobs\\SyncCustomer' })
    expect(events[1]!.body).toBe('Failed:     App\\Jobs\\SyncCustomer')
    expect(events[2]!.body.split('\n')).toEqual([
      'RuntimeException: Customer API returned 503 in /app/app/Jobs/SyncCustomer.php:57',
      'Stack trace:',
      '#0 /app/vendor/laravel/framework/src/Illuminate/Queue/CallQueuedHandler.php(51): App\\Jobs\\SyncCustomer->handle()',
      '#1 /app/app/Jobs/SyncCustomer.php(57): App\\Jobs\\SyncCustomer->fetch()',
    ])
  })

  it('reads the (indented) progress framing as `Job — detail`', () => {
    expect(events.slice(3).map((e) => [e.occurredAt, e.body])).toEqual([
      ['2026-08-20 04:00:00', 'App\\Jobs\\SyncCustomer — RUNNING'],
      ['2026-08-20 04:00:01', 'App\\Jobs\\SyncCustomer — 812ms DONE'],
      ['2026-08-20 04:05:33', 'App\\Jobs\\RebuildSearchIndex — 33s FAIL'],
    ])
  })

  it.each([
    ['[2026-08-20 03:00:02] Failed: App\\Jobs\\X', 'ERROR'],
    ['[2026-08-20 03:00:02][a] failed App\\Jobs\\X', 'ERROR'],
    ['[2026-08-20 03:00:02][a] App\\Jobs\\X FAILED', 'ERROR'],
    ['[2026-08-20 03:00:02][a] App\\Exceptions\\GatewayException: down', 'ERROR'],
    ['[2026-08-20 03:00:02][a] TypeError: x', 'ERROR'],
    ['[2026-08-20 03:00:02][a] Processed: App\\Jobs\\X', 'INFO'],
    ['[2026-08-20 03:00:02][a] Unfailed retry', 'INFO'],
    ['2026-08-20 03:00:02 App\\Jobs\\X ........ 2s FAIL', 'ERROR'],
    ['2026-08-20 03:00:02 App\\Jobs\\X ........ 2s DONE', 'INFO'],
  ])('grades %j as %s', (line, severity) => {
    expect(parseText(`${line}\n`, 'horizon.log', { parser: horizonConsoleParser })[0]!.severity).toBe(severity)
  })

  it('converts an offset-bearing progress time and keeps a detail-less job as the body', () => {
    const [event] = parseText('2026-08-20T04:00:00+02:00 App\\Jobs\\X ..........\n', 'horizon.log', { parser: horizonConsoleParser })
    expect(event).toMatchObject({ occurredAt: '2026-08-20 02:00:00', body: 'App\\Jobs\\X' })
  })

  it.each([
    ['horizon.log', '\n  [2026-08-20 03:00:01][7f3a1c2e] Processing: X', 1.5],
    ['horizon.log', '2026-08-20 04:00:00 App\\Jobs\\X ......... RUNNING', 1.5],
    ['horizon.log', '[2026-08-20 03:00:01] Failed: App\\Jobs\\Thing', 1.5], // the bare framing counts when named
    ['worker.log', '[2026-08-20 03:00:01] Failed: App\\Jobs\\Thing', 0],
    ['worker.log', '[2026-08-20 03:00:01][7f3a1c2e] Failed: App\\Jobs\\Thing', 1], // with a job id, by content
    ['worker.log', 'Horizon started successfully.\n  2023-07-22 16:13:34 App\\Jobs\\TestJob ....... 1s DONE', 2],
    ['horizon.log', '2026-08-20 03:00:02 ERROR supervisor restarted the pool', 0],
  ])('scores %s with %j: %s', (name, sample, expected) => {
    expect(detectScore(horizonConsoleParser, name, sample)).toBe(expected)
  })

  // opcodesio/log-viewer's HorizonNewLogsTest / HorizonOldLogsTest shapes, as this parser reads them.
  describe('log-viewer test vectors', () => {
    const rows = (text: string, name = 'horizon.log') => parseText(text, name).map((e) => [e.occurredAt, e.severity, e.body])

    it('reads new Horizon output after its start banner, the banner being no event and not unparseable', () => {
      const text = [
        'Horizon started successfully.',
        '  2023-07-22 16:13:33 App\\Jobs\\TestJob ............................... RUNNING',
        '  2023-07-22 16:13:34 App\\Jobs\\TestJob ............................... 1s DONE',
        '  2023-07-22 16:13:39 App\\Jobs\\TestJob ............................... RUNNING',
        '  2023-07-22 16:13:39 App\\Jobs\\TestJob ........................... 3.67ms FAIL',
      ].join('\n')
      expect(rows(text, 'worker.log')).toEqual([
        ['2023-07-22 16:13:33', 'INFO', 'App\\Jobs\\TestJob — RUNNING'],
        ['2023-07-22 16:13:34', 'INFO', 'App\\Jobs\\TestJob — 1s DONE'],
        ['2023-07-22 16:13:39', 'INFO', 'App\\Jobs\\TestJob — RUNNING'],
        ['2023-07-22 16:13:39', 'ERROR', 'App\\Jobs\\TestJob — 3.67ms FAIL'],
      ])
      expect(parseLog(new TextEncoder().encode(text), { fileName: 'worker.log', baseOffset: 0, isEndOfFile: true, fileModifiedAt: MTIME, now: NOW }).unparseable).toBe(0)
    })

    it('reads the weird cases: no dots, spaced durations, and a line Horizon overwrote', () => {
      const text = [
        'Horizon started successfully.',
        '  2023-08-17 07:22:32 App\\Jobs\\TestJob  1 s DONE',
        '  2023-08-18 06:05:03 App\\Jobs\\TestJob  32 s. DONE',
        '  2023-08-19 04:31:07 App\\Jobs\\TestJob .... 12 sek DONE',
        '  2023-08-20 02:15:58 App\\Jobs\\TestJob  2023-08-20 02:15:59 App\\Jobs\\TestJob  25.14ms DONE',
      ].join('\n')
      expect(rows(text)).toEqual([
        ['2023-08-17 07:22:32', 'INFO', 'App\\Jobs\\TestJob — 1 s DONE'],
        ['2023-08-18 06:05:03', 'INFO', 'App\\Jobs\\TestJob — 32 s. DONE'],
        ['2023-08-19 04:31:07', 'INFO', 'App\\Jobs\\TestJob — 12 sek DONE'],
        ['2023-08-20 02:15:59', 'INFO', 'App\\Jobs\\TestJob — 25.14ms DONE'],
      ])
    })

    it('detects Horizon output without the banner and reads every duration format', () => {
      const text = [
        '  2022-11-11 13:50:44 App\\Jobs\\FirstJob ............... 40.12ms DONE',
        '  2022-11-11 13:50:45 App\\Jobs\\FifthJob ............... 3.67ms FAIL',
        '  2022-11-11 13:50:46 App\\Jobs\\SixthJob ............... 2m 30s DONE',
      ].join('\n')
      expect(rows(text, 'queue.log')).toEqual([
        ['2022-11-11 13:50:44', 'INFO', 'App\\Jobs\\FirstJob — 40.12ms DONE'],
        ['2022-11-11 13:50:45', 'ERROR', 'App\\Jobs\\FifthJob — 3.67ms FAIL'],
        ['2022-11-11 13:50:46', 'INFO', 'App\\Jobs\\SixthJob — 2m 30s DONE'],
      ])
    })

    it('reads old Horizon output with its failures as ERROR at their own times', () => {
      const text = [
        '[2022-10-07 09:41:00][a1b2c3d4-e5f6-7890-1234-567890abcdef] Processing: App\\Jobs\\SendEmailJob',
        '[2022-10-07 09:41:01][a1b2c3d4-e5f6-7890-1234-567890abcdef] Failed:     App\\Jobs\\SendEmailJob',
        '[2022-10-07 09:42:00][b2c3d4e5-f6a7-8901-2345-67890abcdef1] Processed:  App\\Events\\UserRegistered',
      ].join('\n')
      expect(rows(text, 'horizon_old_failed.log')).toEqual([
        ['2022-10-07 09:41:00', 'INFO', 'Processing: App\\Jobs\\SendEmailJob'],
        ['2022-10-07 09:41:01', 'ERROR', 'Failed:     App\\Jobs\\SendEmailJob'],
        ['2022-10-07 09:42:00', 'INFO', 'Processed:  App\\Events\\UserRegistered'],
      ])
    })

    it('does not append a later start banner to the event before it', () => {
      const text = '  2023-07-22 16:13:34 App\\Jobs\\A ....... 1s DONE\n\n   INFO  Horizon started successfully.  \n\n'
      expect(parseText(text, 'horizon.log').map((e) => e.body)).toEqual(['App\\Jobs\\A — 1s DONE'])
    })
  })
})
