import { describe, expect, it } from 'vitest'
import { analyzeEvent } from '../../../worker/digest/analyze-event.ts'
import { parseLog } from '../../../worker/digest/parse-log.ts'
import { selectParser } from '../../../worker/digest/select-parser.ts'
import { MTIME, NOW, fixtureBytes } from './parse-text.ts'

/**
 * Excerpts of real log files from public projects (test/fixtures/logs/real/README.md names each origin),
 * read end to end: the format detected from the content (under a neutral name and under the name the file had),
 * every entry counted, and representative entries exactly.
 */
const decoder = new TextDecoder()

function read(file: string, name = 'upload.log') {
  const bytes = fixtureBytes(`real/${file}`)
  const result = parseLog(bytes, { fileName: name, baseOffset: 0, isEndOfFile: true, fileModifiedAt: MTIME, now: NOW })
  const entries = result.events.map((event) => {
    const a = analyzeEvent(event)
    return { occurredAt: event.occurredAt, severity: event.severity, title: a.title, exceptionClass: a.exceptionClass, sourceFrame: a.sourceFrame }
  })
  const bySeverity: Record<string, number> = {}
  for (const event of result.events) bySeverity[event.severity] = (bySeverity[event.severity] ?? 0) + 1
  return { result, entries, bySeverity, bytes }
}

describe('real-world logs: format detection', () => {
  it.each([
    ['laravel-windows-xampp.log', 'laravel.log', 'laravel'],
    ['laravel-windows-laragon.log', 'laravel.log', 'laravel'],
    ['horizon-bracketed.log', 'horizon.log', 'horizon-console'],
    ['horizon-after-exception.log', 'horizon.log', 'horizon-console'],
    ['horizon-progress.log', 'horizon.log', 'horizon-console'],
    ['nginx-access-probes.log', 'access.log', 'nginx-access'],
    ['nginx-error.log', 'error.log', 'nginx-error'],
    ['nginx-error-emerg.log', 'error.log', 'nginx-error'],
    ['nginx-error-fastcgi.log', 'admin.error.log.1', 'nginx-error'],
    ['nginx-error-multiline.log', 'multiline_nginx_error_dummy.log', 'nginx-error'],
    ['apache-error-2.4.log', 'errors_dummy.log', 'apache-error'],
    ['apache-error-2.2.log', 'Apache_2k.log', 'apache-error'],
  ])('detects %s as %s (its own name) and by content alone', (file, name, parser) => {
    const sample = decoder.decode(fixtureBytes(`real/${file}`))
    expect(selectParser(name, sample).id).toBe(parser)
    expect(selectParser('upload.log', sample).id).toBe(parser)
  })
})

describe('real-world logs: entries', () => {
  it('Laravel on Windows (xampp): JSON-escaped paths decoded once, vendor frames skipped, no `"}` in the stack', () => {
    const { result, entries } = read('laravel-windows-xampp.log')
    expect(result.events.map((e) => [e.byteStart, e.byteEnd])).toEqual([
      [0, 1642],
      [1642, 3859],
    ])
    expect(entries[0]).toEqual({
      occurredAt: '2021-05-10 13:16:04',
      severity: 'ERROR',
      title: 'There are no commands defined in the "jetstream" namespace.',
      exceptionClass: 'Symfony\\Component\\Console\\Exception\\NamespaceNotFoundException',
      // every frame is library code (or `artisan`, no .php frame): the first frame is the culprit
      sourceFrame: 'C:\\xampp\\htdocs\\IDV0298\\vendor\\symfony\\console\\Application.php:656',
    })
    const stack = analyzeEvent(result.events[1]!).stack!
    expect(stack.split('\n')[0]).toBe('#0 C:\\xampp\\htdocs\\IDV0298\\vendor\\symfony\\console\\Command\\Command.php(251): Symfony\\Component\\Console\\Input\\Input->validate()')
    expect(stack.endsWith("#7 C:\\xampp\\htdocs\\IDV0298\\artisan(37): Illuminate\\Foundation\\Console\\Kernel->handle(Object(Symfony\\Component\\Console\\Input\\ArgvInput), Object(Symfony\\Component\\Console\\Output\\ConsoleOutput))\n#8 {main}")).toBe(true)
    expect(stack).not.toContain('\\\\')
    expect(stack).not.toContain('"}')
  })

  it('Laravel on Windows (laragon): the culprit is the first frame outside C:\\…\\vendor\\…', () => {
    const { entries } = read('laravel-windows-laragon.log')
    expect(entries).toEqual([
      {
        occurredAt: '2024-11-27 12:03:33',
        severity: 'ERROR',
        title: 'Call to undefined method App\\Http\\Controllers\\AnggotaController::edit()',
        exceptionClass: 'Error',
        sourceFrame: 'C:\\laragon\\www\\perpustakaan\\public\\index.php:17',
      },
    ])
  })

  it('Horizon, old framing after "Horizon started successfully.": failures are ERROR at their own times', () => {
    const { result, entries, bySeverity } = read('horizon-bracketed.log')
    expect(bySeverity).toEqual({ INFO: 6, ERROR: 6 })
    expect(result.unparseable).toBe(0) // 16 start banners, none of them an entry or unparseable
    expect(entries[1]).toEqual({ occurredAt: '2021-10-16 01:26:15', severity: 'ERROR', title: 'Failed: App\\Jobs\\SchedulePodcastsSocialPostsJob', exceptionClass: null, sourceFrame: null })
    // The Termwind error block after a failure is that failure's text (trimmed lines, blank ones left out).
    expect(result.events[9]!.body.split('\n').slice(0, 4)).toEqual([
      'Failed:     App\\Jobs\\SchedulePodcastsSocialPostsJob',
      'Error',
      'Typed property App\\Jobs\\SchedulePodcastsSocialPostsJob::$campaignTemplate must not be accessed before initialization',
      'at vendor/facade/ignition/src/JobRecorder/JobRecorder.php:92',
    ])
    expect(result.events[11]!.occurredAt).toBe('2021-10-16 01:34:29')
  })

  it('Horizon after a console exception: the banner and the bracketed lines decide, the exception is counted', () => {
    const { result, entries } = read('horizon-after-exception.log')
    expect(entries).toHaveLength(8)
    expect(entries[0]).toEqual({ occurredAt: '2019-11-07 20:30:48', severity: 'INFO', title: 'Processing: App\\Jobs\\ServiceJob', exceptionClass: null, sourceFrame: null })
    expect(result.unparseable).toBe(17) // the non-blank lines of the RedisException block before the first entry
  })

  it('Horizon progress output: each line its own entry with its own time', () => {
    const { entries, result } = read('horizon-progress.log')
    expect(entries.map((e) => [e.occurredAt, e.severity, e.title])).toEqual([
      ['2023-03-19 01:42:49', 'INFO', 'App\\Mail\\UserStoreMail — RUNNING'],
      ['2023-03-19 01:42:51', 'INFO', 'App\\Mail\\UserStoreMail — 2,702.27ms DONE'],
    ])
    expect(result.unparseable).toBe(0)
  })

  it('nginx access log from an exposed server: TLS handshakes and empty requests are events', () => {
    const { entries, bySeverity, result } = read('nginx-access-probes.log')
    expect(bySeverity).toEqual({ INFO: 14, WARNING: 8 })
    expect(result.unparseable).toBe(0)
    expect(entries.filter((e) => e.title.startsWith('HTTP 400 (')).map((e) => [e.occurredAt, e.title])).toEqual([
      ['2020-08-26 18:59:45', 'HTTP 400 (empty request)'],
      ['2020-08-26 20:41:56', 'HTTP 400 (binary request)'],
      ['2020-08-28 23:13:24', 'HTTP 400 (binary request)'],
      ['2020-08-29 17:11:25', 'HTTP 400 (binary request)'],
    ])
  })

  it('nginx error log: levels, request fields in the context, a raw-byte request line kept', () => {
    const { result, entries, bySeverity } = read('nginx-error.log')
    expect(bySeverity).toEqual({ NOTICE: 14, INFO: 15, ERROR: 6 })
    expect(entries[24]).toEqual({
      occurredAt: '2020-08-26 21:02:35',
      severity: 'ERROR',
      title: '"/etc/nginx/html/solr/index.html" is not found (2: No such file or directory)',
      exceptionClass: null,
      sourceFrame: null,
    })
    expect(result.events[31]!.context).toEqual({
      pid: 7,
      tid: 7,
      connection: 19,
      client: '193.118.53.210',
      server: 'server.avoin.org',
      request: 'GET /solr/ HTTP/1.1',
      host: '51.15.53.189',
      referrer: 'http://51.15.53.189/solr/#/',
    })
    expect(result.events[23]!.context).toMatchObject({ client: '165.22.77.143', server: 'server.avoin.org' })
  })

  it('nginx error log with emerg lines and pass-phrase prompts between entries', () => {
    const { entries, bySeverity, result } = read('nginx-error-emerg.log')
    expect(bySeverity).toEqual({ EMERGENCY: 9, WARNING: 4, NOTICE: 5 })
    expect(entries[0]).toEqual({
      occurredAt: '2023-03-24 13:24:52',
      severity: 'EMERGENCY',
      title: 'host not found in upstream "php-fpm-81" in /etc/nginx/sites-available/bbs.liaofeng.test.conf:25',
      exceptionClass: null,
      sourceFrame: null,
    })
    expect(result.events[13]!.body).toBe('signal process started\nEnter PEM pass phrase:\nEnter PEM pass phrase:')
  })

  it('nginx FastCGI errors span lines; log-viewer\'s multi-line fixture reads as its test expects', () => {
    expect(read('nginx-error-fastcgi.log').entries[5]).toEqual({
      occurredAt: '2022-04-24 05:48:36',
      severity: 'ERROR',
      title: 'connect() failed (111: Connection refused) while connecting to upstream',
      exceptionClass: null,
      sourceFrame: null,
    })
    const { result } = read('nginx-error-multiline.log')
    expect(result.events.map((e) => [e.occurredAt, e.body.split('\n').length])).toEqual([
      ['2024-08-21 09:08:18', 1],
      ['2024-08-21 09:08:19', 5],
    ])
    expect(result.events[0]!.context).toMatchObject({ upstream: 'fastcgi://unix:/var/run/php/php8.1-fpm.sock:', referrer: 'http://some-ip:3000/' })
  })

  it('Apache 2.4 and 2.2 (CRLF) error logs', () => {
    const modern = read('apache-error-2.4.log')
    expect(modern.bySeverity).toEqual({ ERROR: 18, WARNING: 6 })
    expect(modern.entries[3]).toEqual({
      occurredAt: '2023-07-09 09:01:03',
      severity: 'ERROR',
      title: 'AH01797: client denied by server configuration: /var/www/system.test/current/public/images/1234.jpg',
      exceptionClass: null,
      sourceFrame: null,
    })
    const old = read('apache-error-2.2.log')
    expect(old.bySeverity).toEqual({ NOTICE: 18, ERROR: 7 })
    expect(old.entries[22]).toEqual({ occurredAt: '2005-12-04 05:15:09', severity: 'ERROR', title: 'Directory index forbidden by rule: /var/www/html/', exceptionClass: null, sourceFrame: null })
    expect(old.result.events[22]!.context).toEqual({ client: '222.166.160.184' })
  })
})
