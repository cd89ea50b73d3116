import { describe, expect, it } from 'vitest'
import { apacheErrorParser } from '../../../../worker/digest/parsers/apache-error.ts'
import { detectScore, parseText } from '../parse-text.ts'

const parse = (text: string) => parseText(text, 'error_log', { parser: apacheErrorParser })

describe('apacheErrorParser', () => {
  // opcodesio/log-viewer's HttpApacheErrorLogTest vectors
  it('reads a 2.4 line: time as written, module, pid and client in the context', () => {
    const [event] = parse("[Sun Jul 09 09:08:27.901758 2023] [php:error] [pid 116942] [client 20.253.242.138:50173] script '/var/www/cgi-bin/cloud.php' not found or unable to stat\n")
    expect(event).toMatchObject({
      occurredAt: '2023-07-09 09:08:27',
      severity: 'ERROR',
      environment: 'apache',
      logType: 'apache_error',
      body: "script '/var/www/cgi-bin/cloud.php' not found or unable to stat",
      context: { module: 'php', pid: 116942, client: '20.253.242.138:50173' },
    })
  })

  it('reads a line without the client part, with tid and remote parts, and moves the referer to the context', () => {
    const [a, b, c] = parse(
      [
        "[Sun Jul 09 09:08:27.901758 2023] [php:error] [pid 116942] script '/var/www/cgi-bin/cloud.php' not found or unable to stat",
        '[Wed May 01 10:00:00.123456 2024] [core:error] [pid 123:tid 456] [remote 10.0.0.1:80] [client 1.2.3.4:5678] AH00126: Invalid URI in request GET /%%% HTTP/1.1',
        '[Mon Jul 10 10:36:41.441316 2023] [php:warn] [pid 62866] [client 82.6.9.6:38045] PHP Warning:  POST Content-Length of 14443198 bytes exceeds the limit of 11534336 bytes in Unknown on line 0, referer: https://system.test/app/browse',
      ].join('\n'),
    )
    expect(a!.context).toEqual({ module: 'php', pid: 116942 })
    expect(b).toMatchObject({
      occurredAt: '2024-05-01 10:00:00',
      body: 'AH00126: Invalid URI in request GET /%%% HTTP/1.1',
      context: { module: 'core', pid: 123, tid: 456, remote: '10.0.0.1:80', client: '1.2.3.4:5678' },
    })
    expect(c).toMatchObject({
      severity: 'WARNING',
      body: 'PHP Warning:  POST Content-Length of 14443198 bytes exceeds the limit of 11534336 bytes in Unknown on line 0',
      context: { module: 'php', pid: 62866, client: '82.6.9.6:38045', referer: 'https://system.test/app/browse' },
    })
  })

  it('reads the 2.2 form (no module, no pid) and the unnamed 2.4 module', () => {
    const [old, unnamed] = parse(
      [
        '[Sun Dec 04 05:15:09 2005] [error] [client 222.166.160.184] Directory index forbidden by rule: /var/www/html/',
        '[Tue Jan 02 03:04:05.000001 2024] [:error] [pid 7] PHP Fatal error:  boom',
      ].join('\n'),
    )
    expect(old).toMatchObject({ occurredAt: '2005-12-04 05:15:09', severity: 'ERROR', body: 'Directory index forbidden by rule: /var/www/html/', context: { client: '222.166.160.184' } })
    expect(unnamed).toMatchObject({ body: 'PHP Fatal error:  boom', context: { pid: 7 } })
  })

  it.each([
    ['emerg', 'EMERGENCY'],
    ['alert', 'ALERT'],
    ['crit', 'CRITICAL'],
    ['error', 'ERROR'],
    ['warn', 'WARNING'],
    ['notice', 'NOTICE'],
    ['info', 'INFO'],
    ['debug', 'DEBUG'],
    ['trace1', 'DEBUG'],
    ['trace8', 'DEBUG'],
  ])('maps [%s] to %s', (level, severity) => {
    expect(parse(`[Wed May 01 10:00:00 2024] [core:${level}] [pid 1] x\n`)[0]!.severity).toBe(severity)
  })

  it('appends lines until the next header to the message and drops lines before the first', () => {
    const events = parse('stray line\n[Wed May 01 10:00:00 2024] [cgi:error] [pid 1] Traceback (most recent call last):\n  File "/srv/x.py", line 3\n')
    expect(events.map((e) => e.body)).toEqual(['Traceback (most recent call last):\n  File "/srv/x.py", line 3'])
  })

  it.each([
    ['error_log', '[Wed May 01 10:00:00 2024] [error] x', 1.5],
    ['apache2.log', '[Wed May 01 10:00:00 2024] [error] x', 1.5],
    ['site.log', '[Wed May 01 10:00:00 2024] [error] x', 1],
    ['site.log', '[2024-05-01 10:00:00] production.ERROR: x', 0],
  ])('scores %s %j as %s', (name, sample, expected) => {
    expect(detectScore(apacheErrorParser, name, sample)).toBe(expected)
  })
})
