import { describe, expect, it } from 'vitest'
import type { LogEvent } from '../../../worker/digest/log-event.ts'
import { parseLog, type ParseOptions } from '../../../worker/digest/parse-log.ts'
import { consoleParser } from '../../../worker/digest/parsers/console.ts'
import { laravelParser } from '../../../worker/digest/parsers/laravel.ts'
import { selectParser } from '../../../worker/digest/select-parser.ts'
import { MTIME, NOW, fixtureBytes, parseText } from './parse-text.ts'

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const raw = (bytes: Uint8Array, e: LogEvent) => decoder.decode(bytes.slice(e.byteStart, e.byteEnd))
const base = { fileModifiedAt: MTIME, now: NOW }
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
const crlfBom = (bytes: Uint8Array) =>
  concat(new Uint8Array([0xef, 0xbb, 0xbf]), encoder.encode(decoder.decode(bytes).replaceAll('\n', '\r\n')))

const FILES: [string, Uint8Array][] = [
  ['laravel.log', fixtureBytes('laravel.log')],
  ['horizon.log', fixtureBytes('horizon.log')],
  ['access.log', fixtureBytes('access.log')],
  ['console.log', fixtureBytes('console.log')],
  ['app.jsonl', fixtureBytes('app.jsonl')],
  ['laravel.log', crlfBom(fixtureBytes('laravel.log'))],
  ['console.log', crlfBom(fixtureBytes('console.log')).slice(0, -2)], // CRLF, BOM and no final newline
  // real files: multi-line nginx errors with trailing fields, Horizon banners, probes, CRLF
  ['error.log', fixtureBytes('real/nginx-error-fastcgi.log')],
  ['horizon.log', fixtureBytes('real/horizon-bracketed.log')],
  ['horizon.log', fixtureBytes('real/horizon-after-exception.log')],
  ['access.log', fixtureBytes('real/nginx-access-probes.log')],
  ['error_log', fixtureBytes('real/apache-error-2.2.log')],
]

describe('parseLog byte offsets', () => {
  it('gives every event the exact UTF-8 byte range of its raw text', () => {
    const bytes = fixtureBytes('laravel.log')
    const events = parseText(bytes, 'laravel.log')
    expect(raw(bytes, events[1]!)).toBe(
      '[2026-08-20 09:15:10] production.WARNING: Payment gateway slow: 2300ms for café «Zürich» 🚀\n',
    )
    expect(raw(bytes, events[4]!)).toBe(
      '[2026-08-20 09:18:30] local.INFO: Gateway unavailable\n\nline one of context — ünïcödé\nline two of context\n',
    )
    for (const event of events) expect(raw(bytes, event).endsWith(`${event.body}\n`)).toBe(true)
    expect(events.map((e) => e.byteStart).slice(1)).toEqual(events.map((e) => e.byteEnd).slice(0, -1))
    expect(events.at(-1)!.byteEnd).toBe(bytes.length)
  })

  it.each(FILES.map(([name, bytes], i) => [`${name} #${i}`, name, bytes] as const))(
    'keeps every event of %s inside its own raw bytes',
    (_label, name, bytes) => {
      for (const event of parseText(bytes, name)) {
        const text = raw(bytes, event)
        expect(text.length).toBeGreaterThan(0)
        expect(text.includes(event.body.split('\n')[0]!.slice(0, 12)) || event.logType === 'nginx_access').toBe(true)
      }
    },
  )

  it('stays exact around invalid UTF-8 bytes', () => {
    const bytes = concat(
      encoder.encode('[2026-01-01 10:00:00] production.ERROR: caf'),
      new Uint8Array([0xe9, 0xff, 0xc3]), // Latin-1 é, an invalid byte, a truncated sequence
      encoder.encode('\n[2026-01-01 10:00:01] production.ERROR: next ✓\n'),
    )
    const events = parseText(bytes, 'laravel.log')
    expect(events.map((e) => [e.byteStart, e.byteEnd])).toEqual([
      [0, 47],
      [47, bytes.length],
    ])
    expect(raw(bytes, events[1]!)).toBe('[2026-01-01 10:00:01] production.ERROR: next ✓\n')
  })

  it('strips \\r from CRLF lines but counts it in the byte range', () => {
    const text = '[2026-01-01 10:00:00] production.ERROR: one\r\n#0 /app/x.php(1)\r\n\r\n[2026-01-01 10:00:01] production.INFO: two\r\n'
    const events = parseText(text, 'laravel.log')
    expect(events.map((e) => [e.body, e.byteStart, e.byteEnd])).toEqual([
      ['one\n#0 /app/x.php(1)\n', 0, 65],
      ['two', 65, 109],
    ])
  })

  it('skips a byte-order mark at offset 0 and starts the first event after it', () => {
    const bytes = crlfBom(encoder.encode('[2026-01-01 10:00:00] production.ERROR: one\n'))
    expect(parseText(bytes, 'laravel.log')).toEqual([expect.objectContaining({ body: 'one', byteStart: 3, byteEnd: bytes.length })])
  })

  it('ends the last event at EOF even without a final newline', () => {
    const text = '[2026-01-01 10:00:00] production.ERROR: one\nmore'
    expect(parseText(text, 'laravel.log')).toEqual([expect.objectContaining({ body: 'one\nmore', byteEnd: 48 })])
  })
})

describe('parseLog chunking', () => {
  const options = (name: string, bytes: Uint8Array): ParseOptions => ({
    ...base,
    fileName: name,
    parser: selectParser(name, decoder.decode(bytes.slice(0, 65_536))),
    baseOffset: 0,
    isEndOfFile: true,
  })

  it.each(FILES.map(([name, bytes], i) => [`${name} #${i}`, name, bytes] as const))(
    'splitting %s at every byte yields the same events as one pass',
    (_label, name, bytes) => {
      const one = parseLog(bytes, options(name, bytes))
      const whole = one.events
      expect(whole.length).toBeGreaterThan(1)
      for (let cut = 0; cut <= bytes.length; cut++) {
        const first = parseLog(bytes.slice(0, cut), { ...options(name, bytes), isEndOfFile: false })
        expect(first.consumedTo).toBeLessThanOrEqual(cut)
        const rest = parseLog(bytes.slice(first.consumedTo), {
          ...options(name, bytes),
          parser: first.parser,
          baseOffset: first.consumedTo,
        })
        expect([...first.events, ...rest.events]).toEqual(whole)
        expect(first.unparseable + rest.unparseable).toBe(one.unparseable) // no line counted twice or lost
      }
    },
  )

  it('resumes at the start of the held-back multi-line event, or after the last line for nginx', () => {
    const laravel = encoder.encode('[2026-01-01 10:00:00] production.ERROR: one\n[2026-01-01 10:00:01] production.ERROR: two\n#0 x\n')
    const held = parseLog(laravel, { ...base, fileName: 'laravel.log', baseOffset: 100, isEndOfFile: false })
    expect(held.events.map((e) => e.body)).toEqual(['one'])
    expect(held.consumedTo).toBe(100 + 44)
    const nginx = fixtureBytes('access.log')
    const lines = parseLog(nginx.slice(0, nginx.length - 5), { ...base, fileName: 'access.log', baseOffset: 0, isEndOfFile: false })
    expect(lines.events).toHaveLength(3)
    expect(lines.consumedTo).toBe(nginx.lastIndexOf(0x0a, nginx.length - 2) + 1)
  })

  it('uses the parser it is given instead of sampling a resumed chunk', () => {
    const bytes = encoder.encode('[2026-01-01 10:00:00] production.ERROR: one\n')
    const result = parseLog(bytes, { ...base, fileName: 'laravel.log', parser: consoleParser, baseOffset: 500, isEndOfFile: true })
    expect(result.parser).toBe(consoleParser)
    expect(result.events[0]).toMatchObject({ logType: 'console', byteStart: 500, byteEnd: 544 })
  })

  it('supports a caller loop that grows the chunk until an event fits', () => {
    const bytes = fixtureBytes('laravel.log')
    const whole = parseText(bytes, 'laravel.log')
    const events: LogEvent[] = []
    let offset = 0
    let size = 64
    let parser = laravelParser
    while (offset < bytes.length) {
      const end = Math.min(bytes.length, offset + size)
      const result = parseLog(bytes.slice(offset, end), { ...base, fileName: 'laravel.log', parser, baseOffset: offset, isEndOfFile: end === bytes.length })
      events.push(...result.events)
      if (result.consumedTo === offset) size *= 2
      offset = result.consumedTo
      parser = result.parser as typeof laravelParser
    }
    expect(events).toEqual(whole)
  })

  it('with forceProgress, cuts an event longer than the chunk and skips its remainder next time', () => {
    const head = '[2026-01-01 10:00:00] production.ERROR: big\n'
    const text = `${head}${'#1 frame line\n'.repeat(10)}[2026-01-01 10:00:01] production.ERROR: after\n`
    const bytes = encoder.encode(text)
    const opts = { ...base, fileName: 'laravel.log', parser: laravelParser, forceProgress: true }
    const first = parseLog(bytes.slice(0, 95), { ...opts, baseOffset: 0, isEndOfFile: false })
    expect(first.events).toEqual([expect.objectContaining({ body: 'big\n#1 frame line\n#1 frame line\n#1 frame line', byteEnd: 86 })])
    expect(first).toMatchObject({ consumedTo: 86, insideEvent: true })
    const second = parseLog(bytes.slice(86, 150), { ...opts, baseOffset: 86, isEndOfFile: false, insideEvent: true })
    expect(second).toMatchObject({ events: [], consumedTo: 142, insideEvent: true })
    const third = parseLog(bytes.slice(142), { ...opts, baseOffset: 142, isEndOfFile: true, insideEvent: true })
    expect(third.events).toEqual([expect.objectContaining({ body: 'after', byteStart: 184 })])
    expect(third.insideEvent).toBe(false)
  })

  it('with forceProgress, emits a single line longer than the chunk', () => {
    const bytes = encoder.encode(`[2026-01-01 10:00:00] production.ERROR: ${'x'.repeat(200)}\n`)
    const result = parseLog(bytes.slice(0, 80), { ...base, fileName: 'laravel.log', parser: laravelParser, baseOffset: 0, isEndOfFile: false, forceProgress: true })
    expect(result).toMatchObject({ consumedTo: 80, insideEvent: true })
    expect(result.events[0]!.body).toBe('x'.repeat(40))
  })
})

describe('parseLog capture limit', () => {
  it('caps the body in UTF-8 bytes without splitting characters, yet consumes every line', () => {
    const text = `[2026-01-01 10:00:00] production.ERROR: héllo\n${'ünïcödé line\n'.repeat(5)}[2026-01-01 10:00:01] production.ERROR: next\n`
    const events = parseText(text, 'laravel.log', { captureLimit: 36 })
    expect(events[0]!.body).toBe('héllo\nünïcödé line\nünïcödé ')
    expect(encoder.encode(events[0]!.body).length).toBe(36)
    expect(events[0]!.byteEnd).toBe(encoder.encode(text.slice(0, text.lastIndexOf('[2026'))).length)
    expect(events[1]).toMatchObject({ body: 'next', byteStart: events[0]!.byteEnd })
  })

  it('caps a header line longer than the limit', () => {
    const [event] = parseText(`[2026-01-01 10:00:00] production.ERROR: ${'é'.repeat(50)}\nmore\n`, 'laravel.log', { captureLimit: 11 })
    expect(event!.body).toBe('ééééé')
  })

  it('defaults to 4 MiB', () => {
    const line = 'y'.repeat(1024 * 1024)
    const text = `[2026-01-01 10:00:00] production.ERROR: x\n${`${line}\n`.repeat(5)}`
    const [event] = parseText(text, 'laravel.log')
    expect(encoder.encode(event!.body).length).toBe(4 * 1024 * 1024)
    expect(event!.byteEnd).toBe(encoder.encode(text).length)
  })
})

describe('parseLog accounting', () => {
  it('counts non-blank lines outside every entry as unparseable; blank lines and known banners are not', () => {
    const text = 'booting\n\n   \nstill booting\n[2026-01-01 10:00:00] production.ERROR: one\nnot unparseable: a continuation\n'
    expect(parseLog(encoder.encode(text), { ...base, fileName: 'laravel.log', baseOffset: 0, isEndOfFile: true })).toMatchObject({
      unparseable: 2,
      events: [expect.objectContaining({ body: 'one\nnot unparseable: a continuation' })],
    })
    const horizon = 'Horizon started successfully.\nnoise\n[2026-01-01 10:00:00][1] Failed: X\n'
    expect(parseLog(encoder.encode(horizon), { ...base, fileName: 'horizon.log', baseOffset: 0, isEndOfFile: true }).unparseable).toBe(1)
  })

  it('does not count the rest of an event a previous chunk emitted (insideEvent)', () => {
    const text = 'tail of a long event\n[2026-01-01 10:00:00] production.ERROR: next\n'
    const result = parseLog(encoder.encode(text), { ...base, fileName: 'laravel.log', parser: laravelParser, baseOffset: 9, isEndOfFile: true, insideEvent: true })
    expect(result).toMatchObject({ unparseable: 0, events: [expect.objectContaining({ body: 'next' })] })
  })

  it('lets a parser rewrite an event once its last line is known (nginx request fields)', () => {
    const text = '2024/05/01 10:00:00 [error] 9#9: *1 FastCGI sent in stderr: "PHP message: boom\n#0 {main}" while reading, client: 1.2.3.4, request: "GET / HTTP/1.1"\n'
    const [event] = parseLog(encoder.encode(text), { ...base, fileName: 'error.log', baseOffset: 0, isEndOfFile: true }).events
    expect(event).toMatchObject({
      body: 'FastCGI sent in stderr: "PHP message: boom\n#0 {main}" while reading',
      context: { pid: 9, tid: 9, connection: 1, client: '1.2.3.4', request: 'GET / HTTP/1.1' },
      byteStart: 0,
      byteEnd: encoder.encode(text).length,
    })
  })
})

