import { describe, expect, it } from 'vitest'
import { nginxAccessParser } from '../../../../worker/digest/parsers/nginx-access.ts'
import { parseLog } from '../../../../worker/digest/parse-log.ts'
import { MTIME, NOW, detectScore, fixtureBytes, parseText } from '../parse-text.ts'

const line = (stamp: string, status = 500, target = '/boom') =>
  `10.0.0.1 - - [${stamp}] "GET ${target} HTTP/1.1" ${status} 21 "-" "client/1.0"\n`

describe('nginxAccessParser', () => {
  const events = parseText(fixtureBytes('access.log'), 'access.log')

  it('makes one event per matching line and skips the others', () => {
    expect(events.map((e) => e.body)).toEqual([
      'HTTP 200 GET /health',
      'HTTP 502 POST /api/webhooks/abc',
      'HTTP 404 GET /missing',
      'HTTP 301 GET /café',
    ])
    expect(events.every((e) => e.logType === 'nginx_access' && e.environment === 'nginx')).toBe(true)
  })

  it('grades by status: ≥500 ERROR, ≥400 WARNING, else INFO', () => {
    expect(events.map((e) => e.severity)).toEqual(['INFO', 'ERROR', 'WARNING', 'INFO'])
  })

  it('converts the offset to UTC', () => {
    expect(events.map((e) => e.occurredAt)).toEqual([
      '2026-01-01 12:00:00',
      '2026-01-01 00:15:30',
      '2026-01-01 19:02:00',
      '2026-01-01 12:03:00',
    ])
  })

  it.each([
    ['01/Jan/2026:10:15:30 +1000', '2026-01-01 00:15:30'],
    ['01/Jan/2026:10:15:30 -0700', '2026-01-01 17:15:30'],
    ['01/Jan/2026:01:00:00 +1000', '2025-12-31 15:00:00'],
  ])('converts %s to %s', (stamp, expected) => {
    expect(parseText(line(stamp), 'access.log')[0]!.occurredAt).toBe(expected)
  })

  it('carries the structured context with an integer status and the query string only in target', () => {
    expect(events[1]!.context).toEqual({
      ip: '10.0.0.2',
      method: 'POST',
      target: '/api/webhooks/abc?token=secret',
      path: '/api/webhooks/abc',
      status: 502,
      bytes: '123',
      referer: '-',
      user_agent: 'client/2.0',
    })
    expect(events[2]!.context).toMatchObject({ referer: 'https://shop.test/', user_agent: 'Mozilla/5.0 (X11; Linux x86_64)' })
  })

  it.each([
    ['http://example.test/a/b?c=1', '/a/b'],
    ['//example.test/x#frag', '/x'],
    ['*', '*'],
    ['/only?', '/only'],
  ])('takes the path of target %s', (target, path) => {
    expect(parseText(line('01/Jan/2026:10:15:30 +0000', 200, target), 'access.log')[0]!.body).toBe(`HTTP 200 GET ${path}`)
  })

  it('accepts the common format without referer and agent', () => {
    const [event] = parseText('10.0.0.9 - - [01/Jan/2026:10:15:30 +0000] "DELETE /x HTTP/1.0" 503 -\n', 'nginx.log')
    expect(event!.context).toMatchObject({ status: 503, bytes: '-', referer: '', user_agent: '' })
  })

  it.each([
    ['access.log', line('01/Jan/2026:10:15:30 +0000'), 1.5],
    ['nginx-site.log', line('01/Jan/2026:10:15:30 +0000'), 1.5],
    ['server.log', line('01/Jan/2026:10:15:30 +0000'), 1], // by content alone
    ['access.log', '[2026-01-01 10:00:00] production.ERROR: x', 0],
  ])('scores %s: %s', (name, sample, expected) => {
    expect(detectScore(nginxAccessParser, name, sample)).toBe(expected)
  })

  it('counts requests that are not HTTP: TLS handshakes, empty and missing request lines (status-derived severity)', () => {
    const text = [
      '192.241.233.14 - - [28/Aug/2020:23:13:24 +0000] "\\x16\\x03\\x01\\x00\\x8A\\x01\\x00\\x00\\x86\\x03\\x03J\\x18c" 400 157 "-" "-"',
      '185.39.11.105 - - [26/Aug/2020:18:59:45 +0000] "" 400 0 "-" "-"',
      '10.0.0.1 - - [26/Aug/2020:18:59:46 +0000] "-" 408 0 "-" "-"',
      '10.0.0.2 - - [26/Aug/2020:18:59:47 +0000] "SSH-2.0-Go" 400 157 "-" "-"',
      '10.0.0.3 - - [26/Aug/2020:18:59:48 +0000] "GET /a\\"b HTTP/1.1" 200 1 "-" "x"', // Apache escapes a quote as \"
    ].join('\n')
    const events = parseText(text, 'access.log')
    expect(events.map((e) => [e.severity, e.body])).toEqual([
      ['WARNING', 'HTTP 400 (binary request)'],
      ['WARNING', 'HTTP 400 (empty request)'],
      ['WARNING', 'HTTP 408 (no request)'],
      ['WARNING', 'HTTP 400 (malformed request)'],
      ['INFO', 'HTTP 200 GET /a\\"b'],
    ])
    expect(events[0]!.context).toEqual({
      ip: '192.241.233.14',
      method: '',
      target: '\\x16\\x03\\x01\\x00\\x8A\\x01\\x00\\x00\\x86\\x03\\x03J\\x18c',
      path: '',
      status: 400,
      bytes: '157',
      referer: '-',
      user_agent: '-',
    })
  })

  it('counts a line that is no access-log line as unparseable', () => {
    const bytes = fixtureBytes('access.log') // its third line is an nginx error-log line
    expect(parseLog(bytes, { fileName: 'access.log', baseOffset: 0, isEndOfFile: true, fileModifiedAt: MTIME, now: NOW }).unparseable).toBe(1)
  })
})
