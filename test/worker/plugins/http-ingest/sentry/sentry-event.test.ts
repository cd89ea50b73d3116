import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { dsnParts, itemJson, parseEnvelope } from '../../../../../worker/plugins/http-ingest/sentry/envelope.ts'
import { eventIdOf, sentryToIngestEvent } from '../../../../../worker/plugins/http-ingest/sentry/sentry-event.ts'
import { sentryKey } from '../../../../../worker/plugins/http-ingest/sentry/routes.ts'

const NOW = new Date('2026-11-25T12:00:00Z')
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../../../fixtures/sentry/${name}`, import.meta.url)))
const bytes = (text: string) => new TextEncoder().encode(text)

describe('Sentry envelopes', () => {
  it('parses the real @sentry/node envelope: header, one event item without a length', () => {
    const envelope = parseEnvelope(fixture('node-exception.envelope'))
    expect(envelope.header.event_id).toMatch(/^[0-9a-f]{32}$/)
    expect(envelope.items.map((item) => item.type)).toEqual(['event'])
    expect(itemJson(envelope.items[0]!)).toMatchObject({ platform: 'node', level: 'error' })
  })

  it('reads items by their byte length (binary attachments, multi-byte text) and without one up to the newline', () => {
    const envelope = parseEnvelope(bytes('{"event_id":"x"}\n{"type":"attachment","length":6}\nü\n\u0001\u0002\n{"type":"event"}\n{"message":"é"}\n'))
    expect(envelope.items.map((item) => [item.type, item.payload.length])).toEqual([['attachment', 6], ['event', 16]])
    expect(itemJson(envelope.items[1]!)).toEqual({ message: 'é' })
  })

  it.each([
    ['', 'The envelope is empty.'],
    ['[1]\n', 'The envelope header is not a JSON object.'],
    ['{}\nnot json\n', 'Envelope item 1 has no JSON header.'],
    ['{}\n{"length":2}\nab\n', 'Envelope item 1 has no type.'],
    ['{}\n{"type":"event","length":-1}\n', 'Envelope item 1 states a length its payload does not have.'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseEnvelope(bytes(text))).toThrow(message)
  })

  it('reads the public key and numeric project of a DSN', () => {
    expect(dsnParts('https://lpk_abc@loupe.example/12')).toEqual({ publicKey: 'lpk_abc', projectId: '12' })
    expect(dsnParts('https://lpk_abc@loupe.example/prefix/12')).toEqual({ publicKey: 'lpk_abc', projectId: '12' })
    expect(dsnParts('https://loupe.example/12')).toBeNull()
    expect(dsnParts('https://k@loupe.example/default')).toBeNull()
    expect(dsnParts(42)).toBeNull()
  })

  it('takes the key from X-Sentry-Auth, then ?sentry_key=, then the envelope DSN', () => {
    const url = new URL('https://loupe.example/api/1/envelope/?sentry_key=from_query')
    expect(sentryKey(new Headers({ 'X-Sentry-Auth': 'Sentry sentry_version=7, sentry_key=from_header, sentry_client=x' }), url, null)).toBe('from_header')
    expect(sentryKey(new Headers(), url, 'https://from_dsn@h/1')).toBe('from_query')
    expect(sentryKey(new Headers(), new URL('https://loupe.example/api/1/envelope/'), 'https://from_dsn@h/1')).toBe('from_dsn')
    expect(sentryKey(new Headers(), new URL('https://loupe.example/'), null)).toBeNull()
  })
})

describe('Sentry events onto Loupe events', () => {
  it('maps the real exception: class, message, innermost in-app culprit, stack innermost first, context', () => {
    const raw = itemJson(parseEnvelope(fixture('node-exception.envelope')).items[0]!)
    const event = sentryToIngestEvent(raw, NOW)
    expect(event).toMatchObject({ exceptionClass: 'TypeError', message: "Cannot read properties of undefined (reading 'amount')", severity: 'ERROR', environment: 'staging', channel: 'sentry', release: 'shop@2.4.1', tags: [], module: null })
    expect(event.culprit).toMatch(/capture-node\.ts:\d+:\d+$/)
    expect(event.stack!.split('\n')[0]).toBe(`    at chargeCard (${event.culprit})`)
    expect(event.context).toMatchObject({ user: { id: 'u-7', email: 'ada@example.com' }, tags: { region: 'eu-west' }, server_name: 'web-3', platform: 'node' })
    expect(event.eventId).toMatch(/^[0-9a-f]{32}$/)
  })

  it('maps levels, messages without exceptions, logger channels and timestamps', () => {
    expect(sentryToIngestEvent({ message: 'plain' }, NOW)).toMatchObject({ message: 'plain', severity: 'INFO', channel: 'sentry', occurredAt: '2026-11-25 12:00:00', exceptionClass: null, stack: null })
    expect(sentryToIngestEvent({ logentry: { formatted: 'formatted %s', message: 'raw' }, level: 'fatal', logger: 'app.jobs', timestamp: '2026-11-20T01:02:03.456Z' }, NOW)).toMatchObject({ message: 'formatted %s', severity: 'CRITICAL', channel: 'app.jobs', occurredAt: '2026-11-20 01:02:03' })
    expect(sentryToIngestEvent({ message: { formatted: 'obj' }, level: 'debug', timestamp: 1_700_000_000.5 }, NOW)).toMatchObject({ message: 'obj', severity: 'DEBUG', occurredAt: '2023-11-14 22:13:20' })
    expect(sentryToIngestEvent({ exception: { values: [{ type: 'OnlyType' }] } }, NOW)).toMatchObject({ message: 'OnlyType', exceptionClass: 'OnlyType', severity: 'ERROR' })
    expect(sentryToIngestEvent({}, NOW).message).toBe('<unlabeled event>')
  })

  it('groups by default for {{ default }}, by a custom key otherwise', () => {
    const base = { exception: { values: [{ type: 'E', value: 'v', stacktrace: { frames: [{ filename: 'a.js', lineno: 1, colno: 2, in_app: true }] } }] } }
    expect(sentryToIngestEvent({ ...base, fingerprint: ['{{ default }}'] }, NOW).fingerprint).toBeNull()
    expect(sentryToIngestEvent({ ...base, fingerprint: ['checkout', '{{ default }}'] }, NOW).fingerprint).toBe('checkout\u001fdefault:E@a.js:1:2')
    expect(sentryToIngestEvent({ ...base, fingerprint: ['x'.repeat(300)] }, NOW).fingerprint).toHaveLength(200)
  })

  it('removes credentials from request headers and keeps the last 50 breadcrumbs', () => {
    const event = sentryToIngestEvent({ message: 'm', request: { url: 'https://s/x', method: 'POST', headers: { Cookie: 'sid=1', Authorization: 'Bearer t', Accept: 'json' } }, breadcrumbs: { values: Array.from({ length: 60 }, (_, i) => ({ message: String(i) })) } }, NOW)
    expect(event.context!.request).toEqual({ url: 'https://s/x', method: 'POST', headers: { Cookie: '[removed]', Authorization: '[removed]', Accept: 'json' } })
    expect((event.context!.breadcrumbs as unknown[]).length).toBe(50)
  })

  it('is total over odd JSON, refusing only a non-object', () => {
    for (const odd of [{ exception: 5 }, { exception: { values: [null, 'x', { stacktrace: { frames: [null, 7, {}] } }] } }, { tags: [['a', 1], 'b'], breadcrumbs: 'no', user: [], level: 9, timestamp: {} }]) {
      expect(() => sentryToIngestEvent(odd, NOW)).not.toThrow()
    }
    expect(() => sentryToIngestEvent([], NOW)).toThrow('A Sentry event must be a JSON object.')
    expect(eventIdOf('AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE')).toBe('aaaaaaaabbbbccccddddeeeeeeeeeeee')
    expect(eventIdOf('short')).toBeNull()
  })
})
