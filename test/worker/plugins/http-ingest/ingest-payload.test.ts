import { describe, expect, it } from 'vitest'
import { occurredAt, readIngestPayload, sanitizeChannel, severityOf } from '../../../../worker/plugins/http-ingest/ingest-payload.ts'

const NOW = new Date('2026-11-25T12:00:00Z')

describe('HTTP ingest payload (reference §4.3)', () => {
  it('reads the three shapes into the same events, with the documented defaults', () => {
    const event = { message: 'Boom' }
    const expected = [{
      message: 'Boom', severity: 'ERROR', environment: 'production', channel: 'app', exceptionClass: null, stack: null, culprit: null,
      occurredAt: '2026-11-25 12:00:00', release: null, context: null, fingerprint: null, tags: [], module: null, eventId: null,
    }]
    expect(readIngestPayload({ events: [event] }, NOW)).toEqual(expected)
    expect(readIngestPayload([event], NOW)).toEqual(expected)
    expect(readIngestPayload(event, NOW)).toEqual(expected)
  })

  it('takes title for message and exception for exception_class, and merges request, user, breadcrumbs, server_name, runtime and release into the context', () => {
    const [event] = readIngestPayload({ title: 'T', exception: 'E', context: { a: 1 }, request: { url: 'u' }, user: { id: 1 }, breadcrumbs: [1, 2], server_name: ' web ', runtime: 'node 20', release: 'r1' }, NOW)
    expect(event).toMatchObject({ message: 'T', exceptionClass: 'E', release: 'r1' })
    expect(event!.context).toEqual({ a: 1, request: { url: 'u' }, user: { id: 1 }, breadcrumbs: [1, 2], server_name: 'web', runtime: 'node 20', release: 'r1' })
  })

  it('cuts long values instead of refusing them, and de-duplicates tags case-insensitively', () => {
    const [event] = readIngestPayload({ message: 'm', release: 'r'.repeat(200), fingerprint: 'f'.repeat(300), tags: ['A', 'a', ' b ', '', 'x'.repeat(100), ...Array.from({ length: 30 }, (_, i) => `t${i}`)], breadcrumbs: Array.from({ length: 70 }, (_, i) => i) }, NOW)
    expect(event!.release).toHaveLength(120)
    expect(event!.fingerprint).toHaveLength(200)
    expect(event!.tags.slice(0, 3)).toEqual(['A', 'b', 'x'.repeat(80)])
    expect(event!.tags).toHaveLength(20)
    expect(event!.context!.breadcrumbs).toEqual(Array.from({ length: 50 }, (_, i) => i + 20))
  })

  it('maps severities with aliases, anything else to ERROR', () => {
    expect(['warn', 'Warning', 'err', 'fatal', 'crit', 'emerg', 'trace', 'info', 'DEBUG', 'bogus', 7, null].map(severityOf)).toEqual([
      'WARNING', 'WARNING', 'ERROR', 'CRITICAL', 'CRITICAL', 'EMERGENCY', 'DEBUG', 'INFO', 'DEBUG', 'ERROR', 'ERROR', 'ERROR',
    ])
  })

  it('sanitises channels as the reference does', () => {
    expect(sanitizeChannel('/var/log/Billing Worker!.log', 'app')).toBe('Billing-Worker-.log')
    expect(sanitizeChannel('C:\\logs\\..weird..', 'app')).toBe('weird')
    expect(sanitizeChannel('***', 'app')).toBe('app')
    expect(sanitizeChannel('a'.repeat(130) + '.log', 'app')).toBe('a'.repeat(120))
  })

  it('reads times with and without a zone, Unix seconds, and falls back to now', () => {
    expect(occurredAt('2026-11-20T10:15:30+02:00', NOW)).toBe('2026-11-20 08:15:30')
    expect(occurredAt('2026-11-20 10:15:30', NOW)).toBe('2026-11-20 10:15:30')
    expect(occurredAt('Fri, 20 Nov 2026 10:15:30 GMT', NOW)).toBe('2026-11-20 10:15:30')
    expect(occurredAt(1_700_000_000, NOW)).toBe('2023-11-14 22:13:20')
    expect(occurredAt('yesterday-ish', NOW)).toBe('2026-11-25 12:00:00')
    expect(occurredAt({}, NOW)).toBe('2026-11-25 12:00:00')
  })
})
