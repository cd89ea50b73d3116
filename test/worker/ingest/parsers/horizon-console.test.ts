import { describe, expect, it } from 'vitest'
import { horizonConsoleParser } from '../../../../worker/ingest/parsers/horizon-console.ts'
import { parseText } from '../parse-text.ts'
import { fixtureBytes } from '../parse-text.ts'

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
    ['horizon.log', '\n  [2026-08-20 03:00:01][7f3a1c2e] Processing: X', true],
    ['horizon.log', '2026-08-20 04:00:00 App\\Jobs\\X ......... RUNNING', true],
    ['worker.log', '[2026-08-20 03:00:01][7f3a1c2e] Failed: App\\Jobs\\Thing', false],
    ['horizon.log', '2026-08-20 03:00:02 ERROR supervisor restarted the pool', false],
  ])('claims %s with %j: %s', (name, sample, expected) => {
    expect(horizonConsoleParser.supports(name, sample)).toBe(expected)
  })
})
