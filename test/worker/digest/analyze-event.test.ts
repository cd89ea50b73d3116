import { describe, expect, it } from 'vitest'
import { analyzeEvent } from '../../../worker/digest/analyze-event.ts'
import type { LogEvent } from '../../../worker/digest/log-event.ts'
import { fixtureBytes, parseText } from './parse-text.ts'

const event = (body: string, extra: Partial<LogEvent> = {}): LogEvent => ({
  occurredAt: '2026-08-20 09:14:02',
  severity: 'ERROR',
  environment: 'production',
  body,
  context: null,
  byteStart: 0,
  byteEnd: body.length,
  logType: 'laravel',
  ...extra,
})
const analyze = (body: string, extra: Partial<LogEvent> = {}) => analyzeEvent(event(body, extra))

describe('analyzeEvent on real fixtures', () => {
  const laravel = parseText(fixtureBytes('laravel.log'), 'laravel.log').map(analyzeEvent)

  it('reads a Laravel exception with trailing JSON and a stack trace', () => {
    const first = laravel[0]!
    expect(first.title).toBe(
      "SQLSTATE[23000]: Integrity constraint violation: 1062 Duplicate entry 'inv-1' for key 'invoices_reference_unique'",
    )
    expect(first.exceptionClass).toBe('Illuminate\\Database\\QueryException')
    expect(first.sourceFrame).toBe('/app/app/Services/InvoiceWriter.php:64')
    // Decoded from the JSON context once: single backslashes, and no closing `"}` after `{main}`.
    expect(first.stack!.split('\n')[0]).toBe(
      "#0 /app/vendor/laravel/framework/src/Illuminate/Database/Connection.php(783): Illuminate\\Database\\Connection->runQueryCallback('insert into `in...', Array, Object(Closure))",
    )
    expect(first.stack!.endsWith('#3 /app/app/Http/Controllers/InvoiceController.php(31): App\\Services\\InvoiceWriter->write(Object(App\\Models\\Invoice))\n#4 {main}')).toBe(true)
    expect(first.context!.startsWith('{"userId":42,"exception":"[object] (Illuminate')).toBe(true)
    expect(first.message).toBe(parseText(fixtureBytes('laravel.log'), 'laravel.log')[0]!.body)
  })

  it('cuts the title before the trailing JSON and keeps that JSON as the context', () => {
    expect(laravel[2]).toMatchObject({
      title: 'Order 123 failed for a@x.test',
      context: '{"request_id":"b0f4a4ed-3ae5-4f18-8e06-4b8d459162ae"}',
      exceptionClass: null,
      sourceFrame: null,
      stack: null,
    })
  })

  it('uses the body after the first line as the stack when there are no frames', () => {
    expect(laravel[4]!.stack).toBe('line one of context — ünïcödé\nline two of context')
  })

  it('JSON-encodes structured context and finds Node frames and the class in a JSON line', () => {
    const json = parseText(fixtureBytes('app.jsonl'), 'app.jsonl').map(analyzeEvent)
    expect(json[1]).toMatchObject({
      title: 'request failed',
      exceptionClass: 'TypeError',
      sourceFrame: '/srv/app/src/routes/orders.js:42:17',
      stack: '/srv/app/src/routes/orders.js:42:17\n/srv/app/node_modules/express/lib/router/layer.js:95:5',
    })
    expect(JSON.parse(json[1]!.context!)).toEqual({
      err: { type: 'TypeError', message: "Cannot read properties of undefined (reading 'id')" },
      req: { method: 'GET', url: '/orders/17' },
    })
  })

  it('does not cut structured-context titles at " {"', () => {
    const nginx = analyze('HTTP 404 GET /a {b}', { context: { status: 404 }, logType: 'nginx_access' })
    expect(nginx).toMatchObject({ title: 'HTTP 404 GET /a {b}', context: '{"status":404}' })
  })
})

describe('analyzeEvent title', () => {
  it.each([
    ['SQLSTATE[HY000]: General error (Connection: mysql, SQL: select 1)', 'SQLSTATE[HY000]: General error'],
    ['Boom {"exception":"[object] (X(code: 0))"}', 'Boom'],
    ['Write failed SQL: INSERT INTO logs values (1)', 'Write failed'],
    ['Write failed sql: update users set a=1', 'Write failed'],
    ['Write failed SQL: updated nothing', 'Write failed SQL: updated nothing'],
    ['  spaced \t out   words  ', 'spaced out words'],
    ['\n\nfirst real line\nsecond', 'first real line'],
  ])('turns %j into %j', (body, title) => {
    expect(analyze(body).title).toBe(title)
  })

  it('keeps 180 characters and truncates longer titles to 177 plus an ellipsis', () => {
    expect(analyze('a'.repeat(180)).title).toBe('a'.repeat(180))
    expect(analyze('a'.repeat(181)).title).toBe(`${'a'.repeat(177)}…`)
    expect(analyze('🚀'.repeat(181)).title).toBe(`${'🚀'.repeat(177)}…`)
    expect(analyze('🚀'.repeat(100)).title).toBe('🚀'.repeat(100))
  })
})

describe('analyzeEvent exception class', () => {
  it.each([
    ['Failed {"exception":"[object] (App\\\\Exceptions\\\\PaymentFailed(code: 0): declined"}', 'App\\Exceptions\\PaymentFailed'],
    ['App\\Exceptions\\PaymentFailedException: declined', 'App\\Exceptions\\PaymentFailedException'],
    ['Uncaught TypeError: x is not a function', 'TypeError'],
    ['RuntimeException in /app/x.php', 'RuntimeException'],
    ['Error: plain Error has no prefix', null],
    ['lowercaseexception happened', null],
    ['MyErrorHandler failed', null],
    ['nothing to see', null],
  ])('finds in %j the class %j', (body, exceptionClass) => {
    expect(analyze(body).exceptionClass).toBe(exceptionClass)
  })

  it('searches the context exception text, unescaping \\n, \\r and \\t', () => {
    const result = analyze('Job failed', {
      context: { exception: 'App\\Jobs\\SyncException: 503\\n#0 /app/vendor/x/Y.php(10)\\n#1 /app/app/Jobs/Sync.php(57)' },
      logType: 'json',
    })
    expect(result).toMatchObject({
      exceptionClass: 'App\\Jobs\\SyncException',
      sourceFrame: '/app/app/Jobs/Sync.php:57',
      stack: '/app/vendor/x/Y.php:10\n/app/app/Jobs/Sync.php:57',
    })
  })

  it('reads `error` when there is no `exception`, from trailing JSON too', () => {
    expect(analyze('Oops {"error":"GatewayError: timeout"}').exceptionClass).toBe('GatewayError')
  })
})

describe('analyzeEvent frames and stack', () => {
  const deep = analyze(
    [
      "SQLSTATE[23000]: Duplicate entry 'inv-1' for key 'invoices_reference_unique'",
      '[stacktrace]',
      '#0 /app/vendor/laravel/framework/src/Illuminate/Database/Connection.php(795): run()',
      '#1 /app/app/Services/InvoiceWriter.php(64): insert()',
    ].join('\n'),
  )
  const shallow = analyze(
    [
      "SQLSTATE[23000]: Duplicate entry 'inv-2' for key 'invoices_reference_unique'",
      '[stacktrace]',
      '#0 /app/app/Services/InvoiceWriter.php(64): insert()',
    ].join('\n'),
  )

  it('skips /vendor/ frames for the culprit even under an /app root', () => {
    expect(deep.sourceFrame).toBe('/app/app/Services/InvoiceWriter.php:64')
    expect(shallow.sourceFrame).toBe('/app/app/Services/InvoiceWriter.php:64')
  })

  it('falls back to the first frame when all frames are library code', () => {
    const result = analyze('Broke\n#0 /app/vendor/laravel/framework/src/Application.php(1): boot()\n#1 /app/node_modules/x/y.php(2): z()')
    expect(result.sourceFrame).toBe('/app/vendor/laravel/framework/src/Application.php:1')
  })

  it('takes everything after [stacktrace] (any case) as the stack', () => {
    expect(analyze('Boom\n[StackTrace]\n  #0 a\n  #1 b\n').stack).toBe('#0 a\n  #1 b')
    expect(deep.stack).toBe(
      '#0 /app/vendor/laravel/framework/src/Illuminate/Database/Connection.php(795): run()\n#1 /app/app/Services/InvoiceWriter.php(64): insert()',
    )
  })

  it('joins the frames as the stack when there is no [stacktrace] marker', () => {
    expect(analyze('Boom\nStack trace:\n#0 /app/a.php(1): x()\n#1 /app/b.php(2): y()').stack).toBe('/app/a.php:1\n/app/b.php:2')
  })

  it('reads Node frames and skips node_modules and node: internals for the culprit', () => {
    const result = analyze(
      [
        'request failed',
        'TypeError: boom',
        '    at Module._compile (node:internal/modules/cjs/loader:1256:14)',
        '    at /srv/app/node_modules/express/lib/router/layer.js:95:5',
        '    at async handler (file:///srv/app/src/orders.mjs:42:17)',
        '    at new Promise (<anonymous>)',
      ].join('\n'),
    )
    expect(result.sourceFrame).toBe('file:///srv/app/src/orders.mjs:42:17')
    expect(result.stack).toBe(
      'node:internal/modules/cjs/loader:1256:14\n/srv/app/node_modules/express/lib/router/layer.js:95:5\nfile:///srv/app/src/orders.mjs:42:17',
    )
  })

  it('reads Python frames innermost first, skipping site-packages for the culprit', () => {
    const result = analyze(
      [
        'Traceback (most recent call last):',
        '  File "/srv/app/main.py", line 3, in <module>',
        '  File "/srv/app/orders.py", line 42, in place',
        '  File "/usr/lib/python3/site-packages/requests/api.py", line 9, in get',
        'ValueError: bad order',
      ].join('\n'),
    )
    expect(result.exceptionClass).toBe('ValueError')
    expect(result.sourceFrame).toBe('/srv/app/orders.py:42')
    expect(result.stack).toBe('/usr/lib/python3/site-packages/requests/api.py:9\n/srv/app/orders.py:42\n/srv/app/main.py:3')
  })
})

describe('analyzeEvent on Windows paths (issue 10)', () => {
  // What Laravel writes on Windows: the context's JSON escapes every backslash, and the trace spans lines.
  const body = [
    'Call to undefined method App\\Http\\Controllers\\AnggotaController::edit() {"exception":"[object] (Error(code: 0): Call to undefined method App\\\\Http\\\\Controllers\\\\AnggotaController::edit() at C:\\\\laragon\\\\www\\\\shop\\\\vendor\\\\laravel\\\\framework\\\\src\\\\Illuminate\\\\Routing\\\\ControllerDispatcher.php:46)',
    '[stacktrace]',
    '#0 C:\\\\laragon\\\\www\\\\shop\\\\vendor\\\\laravel\\\\framework\\\\src\\\\Illuminate\\\\Routing\\\\Route.php(260): Illuminate\\\\Routing\\\\ControllerDispatcher->dispatch()',
    '#1 C:\\\\laragon\\\\www\\\\shop\\\\app\\\\Http\\\\Middleware\\\\Tenant.php(31): Illuminate\\\\Routing\\\\Route->run()',
    '#2 C:\\\\laragon\\\\www\\\\new\\\\tests\\\\index.php(17): handle()',
    '#3 {main}',
    '"} ',
  ].join('\n')
  const result = analyze(body)

  it('skips C:\\…\\vendor\\… frames for the culprit and keeps single backslashes', () => {
    expect(result.sourceFrame).toBe('C:\\laragon\\www\\shop\\app\\Http\\Middleware\\Tenant.php:31')
    expect(result.exceptionClass).toBe('Error')
  })

  it('decodes the stack once: no doubled backslashes, no \\n or \\t turned into breaks, no stray `"}`', () => {
    expect(result.stack).toBe(
      [
        '#0 C:\\laragon\\www\\shop\\vendor\\laravel\\framework\\src\\Illuminate\\Routing\\Route.php(260): Illuminate\\Routing\\ControllerDispatcher->dispatch()',
        '#1 C:\\laragon\\www\\shop\\app\\Http\\Middleware\\Tenant.php(31): Illuminate\\Routing\\Route->run()',
        '#2 C:\\laragon\\www\\new\\tests\\index.php(17): handle()',
        '#3 {main}',
      ].join('\n'),
    )
  })

  it('reads frames of a context cut short by the capture limit the same way', () => {
    const cut = analyze(body.slice(0, body.indexOf('#3 {main}')))
    expect(cut.sourceFrame).toBe(result.sourceFrame)
    expect(cut.stack).toBe(result.stack!.slice(0, result.stack!.indexOf('\n#3')))
  })

  it('does not unescape a plain message: a Windows path in text stays as written', () => {
    const plain = analyze('Failed to open C:\\temp\\new\\report.txt\n#0 C:\\srv\\app\\Jobs\\Export.php(9): run()')
    expect(plain.title).toBe('Failed to open C:\\temp\\new\\report.txt')
    expect(plain.sourceFrame).toBe('C:\\srv\\app\\Jobs\\Export.php:9')
  })
})

