import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { frameLink, parseStack, splitStack, unescapeStackText, type StackFrame } from '../../../../dashboard/src/lib/stack.ts'

/** The issue page's stack parsing (issue 17 item 6) on real stack shapes of four ecosystems. */
const frames = (stack: string, culprit: string | null = null) => parseStack(stack, culprit).filter((line): line is StackFrame => line.kind === 'frame')

describe('parseStack', () => {
  it('reads a Laravel stack cut out of its JSON context (Windows paths, escaped backslashes, trailing "})', () => {
    const log = readFileSync(new URL('../../../fixtures/logs/real/laravel-windows-laragon.log', import.meta.url), 'utf8')
    const start = log.indexOf('[stacktrace]')
    const end = log.indexOf('"}', start) + 2
    const stack = log.slice(start, end)
    expect(stack.endsWith('"}')).toBe(true)
    const lines = parseStack(stack, 'C:\\laragon\\www\\perpustakaan\\vendor\\laravel\\framework\\src\\Illuminate\\Routing\\Route.php:210')
    expect(lines[0]).toEqual({ kind: 'text', text: '[stacktrace]' })
    const parsed = lines.filter((line): line is StackFrame => line.kind === 'frame')
    expect(parsed[0]).toMatchObject({
      file: 'C:\\laragon\\www\\perpustakaan\\vendor\\laravel\\framework\\src\\Illuminate\\Routing\\Route.php',
      line: 264,
      fn: "Illuminate\\Routing\\ControllerDispatcher->dispatch(Object(Illuminate\\Routing\\Route), Object(App\\Http\\Controllers\\AnggotaController), 'edit')",
      vendor: true,
      culprit: false,
    })
    expect(parsed[1]).toMatchObject({ line: 210, culprit: true })
    expect(parsed.filter((frame) => frame.culprit)).toHaveLength(1)
    // No escaped backslash and no stray `"}` line survive.
    expect(lines.some((line) => line.text.includes('\\\\'))).toBe(false)
    expect(lines.some((line) => /^["}\]]+$/.test(line.text))).toBe(false)
    expect(parsed.at(-1)).toMatchObject({ fn: '{main}', file: null })
  })

  it('marks app and vendor frames of a Laravel stack and folds the vendor runs', () => {
    const stack = [
      '#0 /app/vendor/laravel/framework/src/Illuminate/Database/Connection.php(783): Illuminate\\Database\\Connection->runQueryCallback()',
      '#1 /app/vendor/laravel/framework/src/Illuminate/Database/Connection.php(576): Illuminate\\Database\\Connection->run()',
      '#2 /app/app/Services/InvoiceWriter.php(64): Illuminate\\Database\\Connection->insert()',
      '#3 /app/app/Http/Controllers/InvoiceController.php(31): App\\Services\\InvoiceWriter->write()',
      '#4 [internal function]: App\\Http\\Controllers\\InvoiceController->store()',
      '#5 {main}',
    ].join('\n')
    const segments = splitStack(stack, '/app/app/Services/InvoiceWriter.php:64')
    expect(segments.map((segment) => [segment.vendor, segment.lines.length])).toEqual([[true, 2], [false, 2], [true, 2]])
    expect((segments[1]!.lines[0] as StackFrame).culprit).toBe(true)
  })

  it('reads Node frames (named, anonymous, async, node: internals)', () => {
    const stack = [
      "TypeError: Cannot read properties of undefined (reading 'id')",
      '    at handler (/srv/app/src/routes/orders.js:42:17)',
      '    at async Promise.all (index 0)',
      '    at /srv/app/node_modules/express/lib/router/layer.js:95:5',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ].join('\n')
    const parsed = frames(stack, '/srv/app/src/routes/orders.js:42')
    expect(parsed.map((frame) => [frame.fn, frame.file, frame.line, frame.vendor, frame.culprit])).toEqual([
      ['handler', '/srv/app/src/routes/orders.js', 42, false, true],
      ['Promise.all', null, null, true, false],
      [null, '/srv/app/node_modules/express/lib/router/layer.js', 95, true, false],
      ['process.processTicksAndRejections', 'node:internal/process/task_queues', 95, true, false],
    ])
    expect(parseStack(stack)[0]).toEqual({ kind: 'text', text: "TypeError: Cannot read properties of undefined (reading 'id')" })
  })

  it('reads Python frames with their source lines as context', () => {
    const stack = [
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.11/site-packages/django/core/handlers/base.py", line 197, in _get_response',
      '    response = wrapped_callback(request, *callback_args, **callback_kwargs)',
      '  File "/srv/shop/orders/views.py", line 58, in checkout',
      '    total = cart.total / cart.count',
      'ZeroDivisionError: division by zero',
    ].join('\n')
    const parsed = frames(stack, '/srv/shop/orders/views.py:58')
    expect(parsed).toHaveLength(2)
    expect(parsed[0]).toMatchObject({ fn: '_get_response', line: 197, vendor: true, context: ['response = wrapped_callback(request, *callback_args, **callback_kwargs)'] })
    expect(parsed[1]).toMatchObject({ file: '/srv/shop/orders/views.py', fn: 'checkout', line: 58, vendor: false, culprit: true, context: ['total = cart.total / cart.count'] })
    expect(parseStack(stack).at(-1)).toEqual({ kind: 'text', text: 'ZeroDivisionError: division by zero' })
  })

  it('reads Java frames: JVM and framework packages are vendor, "Caused by" and "... n more" stay text', () => {
    const stack = [
      'java.lang.IllegalStateException: Order has no lines',
      '\tat com.acme.shop.OrderService.place(OrderService.java:88)',
      '\tat com.acme.shop.OrderController.create(OrderController.java:41)',
      '\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)',
      '\tat org.springframework.web.method.support.InvocableHandlerMethod.doInvoke(InvocableHandlerMethod.java:205)',
      'Caused by: java.sql.SQLException: constraint failed',
      '\t... 12 more',
    ].join('\n')
    const parsed = frames(stack, 'OrderService.java:88')
    expect(parsed.map((frame) => [frame.file, frame.line, frame.vendor, frame.culprit])).toEqual([
      ['OrderService.java', 88, false, true],
      ['OrderController.java', 41, false, false],
      ['Native Method', null, true, false],
      ['InvocableHandlerMethod.java', 205, true, false],
    ])
    expect(parseStack(stack).filter((line) => line.kind === 'text').map((line) => line.text)).toEqual([
      'java.lang.IllegalStateException: Order has no lines',
      'Caused by: java.sql.SQLException: constraint failed',
      '... 12 more',
    ])
  })
})

describe('unescapeStackText and frameLink', () => {
  it('undoes JSON escaping, including a stack stored as one line with literal \\n', () => {
    expect(unescapeStackText('#0 C:\\\\app\\\\x.php(3): f()\\n#1 {main}')).toBe('#0 C:\\app\\x.php(3): f()\n#1 {main}')
    expect(unescapeStackText('at \\/srv\\/a.js:1:2')).toBe('at /srv/a.js:1:2')
    expect(unescapeStackText('plain text')).toBe('plain text')
  })

  it('fills the releases plugin template like the worker does', () => {
    expect(frameLink('https://github.com/acme/shop/blob/{ref}/{path}#L{line}', '', '/app/Services/My Writer.php', 64)).toBe('https://github.com/acme/shop/blob/main/app/Services/My%20Writer.php#L64')
    expect(frameLink('https://git.test/{ref}/{path}', 'v2', 'C:\\www\\app\\x.php', null)).toBe('https://git.test/v2/C%3A/www/app/x.php')
    expect(frameLink('', 'main', '/a.php', 1)).toBeNull()
  })
})
