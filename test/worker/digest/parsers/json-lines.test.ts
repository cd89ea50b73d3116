import { describe, expect, it } from 'vitest'
import { jsonLinesParser } from '../../../../worker/digest/parsers/json-lines.ts'
import { MTIME, NOW, detectScore, fixtureBytes, parseText } from '../parse-text.ts'

const one = (record: Record<string, unknown>) => parseText(`${JSON.stringify(record)}\n`, 'app.jsonl')[0]!

describe('jsonLinesParser', () => {
  const events = parseText(fixtureBytes('app.jsonl'), 'app.jsonl')

  it('reads the fixture: message, level, time, environment', () => {
    expect(events.map((e) => [e.occurredAt, e.severity, e.environment, e.body.split('\n')[0]])).toEqual([
      ['2025-08-20 10:15:30', 'INFO', 'json', 'server listening'],
      ['2025-08-20 10:15:31', 'ERROR', 'json', 'request failed'],
      ['2026-08-20 08:15:30', 'WARNING', 'staging', 'cache miss storm'],
      ['2026-08-20 08:00:00', 'ERROR', 'production', 'Payment declined für Jürgen 💳'],
      ['2025-08-20 10:16:39', 'CRITICAL', 'json', 'disk full'],
    ])
    expect(events.every((e) => e.logType === 'json')).toBe(true)
  })

  it('appends the error stack to the body and keeps the error object without it in the context', () => {
    expect(events[1]!.body).toBe(
      [
        'request failed',
        "TypeError: Cannot read properties of undefined (reading 'id')",
        '    at handler (/srv/app/src/routes/orders.js:42:17)',
        '    at /srv/app/node_modules/express/lib/router/layer.js:95:5',
      ].join('\n'),
    )
    expect(events[1]!.context).toEqual({
      err: { type: 'TypeError', message: "Cannot read properties of undefined (reading 'id')" },
      req: { method: 'GET', url: '/orders/17' },
    })
  })

  it('makes the remaining fields the structured context', () => {
    expect(events[0]!.context).toEqual({ pid: 7, hostname: 'edge-1', port: 8787 })
    expect(events[2]!.context).toEqual({ service: { name: 'catalog' } })
    expect(events[4]!.context).toEqual({ path: '/var/lib/x' })
  })

  it('appends non-JSON lines to the previous event, skipping blank ones', () => {
    expect(events[3]!.body).toBe(
      'Payment declined für Jürgen 💳\nTraceback (most recent call last):\n  File "/srv/app/worker.py", line 12, in run',
    )
  })

  it.each([
    [{ level: 10 }, 'DEBUG'],
    [{ level: 20 }, 'DEBUG'],
    [{ level: 30 }, 'INFO'],
    [{ level: 40 }, 'WARNING'],
    [{ level: 50 }, 'ERROR'],
    [{ level: 60 }, 'ERROR'],
    [{ level: '50' }, 'ERROR'],
    [{ level: 3 }, 'ERROR'],
    [{ level: 4 }, 'WARNING'],
    [{ level: 'warn' }, 'WARNING'],
    [{ severity: 'Critical' }, 'CRITICAL'],
    [{ lvl: 'trace' }, 'DEBUG'],
    [{ levelname: 'WARNING' }, 'WARNING'],
    [{ 'log.level': 'error' }, 'ERROR'],
    [{ log: { level: 'notice' } }, 'NOTICE'],
    [{}, 'INFO'],
    [{ level: null, severity: 'error' }, 'ERROR'],
  ])('maps level fields %j to %s', (fields, severity) => {
    expect(one({ msg: 'x', ...fields }).severity).toBe(severity)
  })

  it.each([
    [{ time: '2026-08-20T10:15:30-07:00' }, '2026-08-20 17:15:30'],
    [{ timestamp: 1755684930 }, '2025-08-20 10:15:30'],
    [{ ts: 1755684930123 }, '2025-08-20 10:15:30'],
    [{ '@timestamp': '2026-08-20T10:15:30Z' }, '2026-08-20 10:15:30'],
    [{ date: '1755684930' }, '2025-08-20 10:15:30'],
    [{ datetime: '2026-08-20 10:15:30' }, '2026-08-20 10:15:30'],
    [{ time: 'soon' }, NOW],
    [{}, MTIME],
  ])('maps time fields %j to %s', (fields, occurredAt) => {
    expect(one({ msg: 'x', ...fields }).occurredAt).toBe(occurredAt)
  })

  it.each([
    [{ message: 'a', msg: 'b' }, 'a', { msg: 'b' }],
    [{ msg: 'b', text: 'c' }, 'b', { text: 'c' }],
    [{ body: 'd' }, 'd', null],
    [{ event: 'login', user: 7 }, 'login', { user: 7 }],
    [{ event: { kind: 'x' } }, '{"event":{"kind":"x"}}', { event: { kind: 'x' } }],
    [{ error: { message: 'only error' } }, 'only error', { error: { message: 'only error' } }],
    [{ msg: 'top', stack: 'Error: x\n    at f (/a.js:1:2)' }, 'top\nError: x\n    at f (/a.js:1:2)', null],
  ])('takes the message from %j', (record, body, context) => {
    const event = one(record)
    expect(event.body).toBe(body)
    expect(event.context).toEqual(context)
  })

  it('turns a non-JSON line before any event into a standalone INFO event', () => {
    const parsed = parseText('booting\n{"msg":"up"}\n', 'app.jsonl', { parser: jsonLinesParser })
    expect(parsed.map((e) => [e.body, e.severity, e.occurredAt])).toEqual([
      ['booting', 'INFO', MTIME],
      ['up', 'INFO', MTIME],
    ])
  })

  it('keeps a __proto__ key as data', () => {
    const [event] = parseText('{"msg":"x","__proto__":{"polluted":true}}\n', 'app.jsonl')
    expect(Object.getPrototypeOf(event!.context)).toBe(Object.prototype)
    expect(JSON.stringify(event!.context)).toBe('{"__proto__":{"polluted":true}}')
  })

  it.each([
    ['{"msg":"x"}', true],
    ['\n  {"level":30}', true],
    ['[1,2]', false],
    ['{not json', false],
    ['plain text', false],
  ])('recognises a file starting %j: %s', (sample, expected) => {
    expect(detectScore(jsonLinesParser, 'app.log', sample) > 0).toBe(expected)
  })

  it('scores every JSON-object line, and half a line more for a .jsonl/.ndjson name', () => {
    const sample = '{"msg":"a"}\nnot json\n{"msg":"b"}\n'
    expect(detectScore(jsonLinesParser, 'app.log', sample)).toBe(2)
    expect(detectScore(jsonLinesParser, 'app.jsonl', sample)).toBe(2.5)
    expect(detectScore(jsonLinesParser, 'app.ndjson', 'plain')).toBe(0)
  })
})
