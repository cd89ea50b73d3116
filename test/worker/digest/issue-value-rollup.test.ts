import { describe, expect, it } from 'vitest'
import { eventValues, VALUE_CHARS } from '../../../worker/digest/issue-value-rollup.ts'

/** Which values an event contributes to its issue's breakdown (issue 17 item 7). */
describe('eventValues', () => {
  const values = (context: string | null, environment: string | null = 'production', release: string | null = null) => eventValues({ context, environment }, release)

  it('reads Laravel context keys before the exception, whose stack holds raw line breaks', () => {
    expect(values('{"userId":7,"url":"/pay","ip":"10.0.0.1","exception":"[object] (E(code: 0): x)\n[stacktrace]\n#0 {main}\n"}')).toEqual([
      ['url', '/pay'], ['user', '7'], ['ip', '10.0.0.1'], ['environment', 'production'],
    ])
    // Raw line breaks inside a value, without an exception.
    expect(values('{"user_id":"a\nb"}')).toEqual([['user', 'a\nb'], ['environment', 'production']])
    // Only the exception: nothing but the environment.
    expect(values('{"exception":"x"}')).toEqual([['environment', 'production']])
  })

  it('reads the leading object of a context followed by more text (a [stacktrace] block, Monolog extra)', () => {
    // Issue 11: these contexts made JSON.parse throw twice per event (14% of an import's CPU) and lost their values.
    expect(values('{"userId":0}\n[stacktrace]\n#0 /app/vendor/laravel/Pipeline.php(147): handle()\n#1 {main}')).toEqual([['user', '0'], ['environment', 'production']])
    expect(values('{"user":{"id":3},"tags":["a}"]} []')).toEqual([['user', '3'], ['environment', 'production']])
    // Braces and escaped quotes inside strings do not end the object.
    expect(values('{"url":"/a}\\"{b","userId":2} {"extra":1}')).toEqual([['url', '/a}"{b'], ['user', '2'], ['environment', 'production']])
    // Raw line breaks inside a value, then more text.
    expect(values('{"user_id":"a\nb"}\n[stacktrace]')).toEqual([['user', 'a\nb'], ['environment', 'production']])
    // An object that never closes gives nothing but the environment.
    expect(values('{"userId":1\n[stacktrace]')).toEqual([['environment', 'production']])
  })

  it('reads HTTP and Sentry ingest contexts (request, user object, server, release)', () => {
    const context = JSON.stringify({ request: { url: 'https://shop.test/pay', method: 'POST' }, user: { email: 'a@shop.test', ip_address: '192.0.2.1' }, server_name: 'web-1', release: 'shop@1' })
    expect(values(context, 'staging')).toEqual([
      ['url', 'https://shop.test/pay'], ['user', 'a@shop.test'], ['ip', '192.0.2.1'], ['environment', 'staging'], ['release', 'shop@1'], ['server', 'web-1'],
    ])
    // The release the event named wins over the context's.
    expect(values(context, 'staging', 'shop@2').find(([name]) => name === 'release')).toEqual(['release', 'shop@2'])
  })

  it('reads nginx access contexts (ip, path) and ignores blanks, objects and broken JSON', () => {
    expect(values('{"ip":"203.0.113.9","method":"GET","path":"/login","status":404}', 'nginx')).toEqual([['url', '/login'], ['ip', '203.0.113.9'], ['environment', 'nginx']])
    expect(values('{"url":"  ","user":{"name":"x"},"ip":{"v":4}}', null)).toEqual([])
    expect(values('{"url":"/cut', null)).toEqual([])
    expect(values('not json', null)).toEqual([])
  })

  it('cuts values to 200 characters, never inside a surrogate pair', () => {
    const long = `/${'a'.repeat(VALUE_CHARS - 2)}😀tail`
    const [url] = values(JSON.stringify({ url: long }), null)
    expect(url![1]).toBe(`/${'a'.repeat(VALUE_CHARS - 2)}`)
    expect(values(JSON.stringify({ url: 'x'.repeat(500) }), null)[0]![1]).toHaveLength(VALUE_CHARS)
  })
})
