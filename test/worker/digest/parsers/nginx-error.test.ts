import { describe, expect, it } from 'vitest'
import { nginxErrorParser } from '../../../../worker/digest/parsers/nginx-error.ts'
import { NOW, detectScore, fixtureBytes, parseText } from '../parse-text.ts'

const parse = (text: string) => parseText(text, 'error.log', { parser: nginxErrorParser })

describe('nginxErrorParser', () => {
  // opcodesio/log-viewer's HttpNginxErrorLogTest vectors
  it('reads a full entry: time as written, level, message without the connection number, request fields as context', () => {
    const [event] = parse(
      '2019/07/11 07:19:30 [error] 934#934: *18897816 open() "/local/nginx/static/ads.txt" failed (2: No such file or directory), client: 85.195.82.90, server: app.digitale-sammlungen.de, request: "GET /ads.txt HTTP/1.1", host: "app.digitale-sammlungen.de"\n',
    )
    expect(event).toMatchObject({
      occurredAt: '2019-07-11 07:19:30',
      severity: 'ERROR',
      environment: 'nginx',
      logType: 'nginx_error',
      body: 'open() "/local/nginx/static/ads.txt" failed (2: No such file or directory)',
      context: {
        pid: 934,
        tid: 934,
        connection: 18897816,
        client: '85.195.82.90',
        server: 'app.digitale-sammlungen.de',
        request: 'GET /ads.txt HTTP/1.1',
        host: 'app.digitale-sammlungen.de',
      },
    })
  })

  it('reads a shorter entry and one without any request field', () => {
    const [alert, warn] = parse(
      [
        '2023/01/04 11:18:33 [alert] 95160#0: *1473 setsockopt(TCP_NODELAY) failed (22: Invalid argument) while keepalive, client: 127.0.0.1, server: 127.0.0.1:80',
        '2023/07/01 22:05:03 [warn] 21925#0: the "listen ... http2" directive is deprecated, use the "http2" directive instead in /Users/test/.config/valet/Nginx/blog9.test:9',
      ].join('\n'),
    )
    expect(alert).toMatchObject({
      severity: 'ALERT',
      body: 'setsockopt(TCP_NODELAY) failed (22: Invalid argument) while keepalive',
      context: { pid: 95160, tid: 0, connection: 1473, client: '127.0.0.1', server: '127.0.0.1:80' },
    })
    expect(warn).toMatchObject({
      occurredAt: '2023-07-01 22:05:03',
      severity: 'WARNING',
      body: 'the "listen ... http2" directive is deprecated, use the "http2" directive instead in /Users/test/.config/valet/Nginx/blog9.test:9',
      context: { pid: 21925, tid: 0 },
    })
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
  ])('maps [%s] to %s', (level, severity) => {
    expect(parse(`2024/05/01 10:00:00 [${level}] 1234#0: *5 message\n`)[0]!.severity).toBe(severity)
  })

  it('keeps a multi-line FastCGI message as one event, its request fields taken from the last line', () => {
    const events = parseText(fixtureBytes('real/nginx-error-fastcgi.log'), 'admin.error.log.1')
    expect(events).toHaveLength(8)
    expect(events[0]!.body).toBe(
      [
        'FastCGI sent in stderr: "PHP message: PHP Fatal error:  Uncaught Error: Call to undefined function dd() in /var/www/shopifyerp.liaofeng.test/backend/public/index.php:10',
        'Stack trace:',
        '#0 {main}',
        '  thrown in /var/www/shopifyerp.liaofeng.test/backend/public/index.php on line 10" while reading response header from upstream',
      ].join('\n'),
    )
    expect(events[0]!.context).toEqual({
      pid: 225,
      tid: 225,
      connection: 23687,
      client: '172.19.0.1',
      server: 'admin.erp.test',
      request: 'GET /settings HTTP/1.1',
      upstream: 'fastcgi://172.19.0.7:9000',
      host: 'shopifyerp.liaofeng.test',
    })
  })

  it('keeps fields that do not end the message where they are', () => {
    const [event] = parse('2024/05/01 10:00:00 [error] 1#1: *2 odd, client: 1.2.3.4 and more text\n')
    expect(event).toMatchObject({ body: 'odd, client: 1.2.3.4 and more text', context: { pid: 1, tid: 1, connection: 2 } })
  })

  it('counts lines before the first entry as unparseable and takes a bad time as "now"', () => {
    const bytes = new TextEncoder().encode('Enter PEM pass phrase:\n2024/13/45 10:00:00 [error] 1#1: bad date\n')
    const events = parseText(bytes, 'error.log', { parser: nginxErrorParser })
    expect(events.map((e) => e.occurredAt)).toEqual([NOW])
  })

  it.each([
    ['error.log', '2024/05/01 10:00:00 [error] 1#0: x', 1.5],
    ['nginx.log', '2024/05/01 10:00:00 [error] 1#0: x', 1.5],
    ['site.log', '2024/05/01 10:00:00 [error] 1#0: x\n2024/05/01 10:00:01 [warn] 1#0: y', 2],
    ['error.log', '2024-05-01 10:00:00 [error] x', 0],
  ])('scores %s %j as %s', (name, sample, expected) => {
    expect(detectScore(nginxErrorParser, name, sample)).toBe(expected)
  })
})
