import { describe, expect, it } from 'vitest'
import { importVersion, parseSeverities, PARSER_VERSION, validateSeverities } from '../../../worker/settings/ingestion-settings.ts'

describe('ingestion settings (reference §3.5, §2.9)', () => {
  it('validates: array, known levels, at least one; stores them in LEVELS order without duplicates', () => {
    expect(() => validateSeverities('ERROR')).toThrow('severities must be an array.')
    expect(() => validateSeverities([])).toThrow('Select at least one severity to ingest.')
    expect(() => validateSeverities(['warn', 'ERROR', 'x'])).toThrow('Unknown severities: WARN, X.')
    expect(validateSeverities(['debug', ' Error ', 'ERROR', 'emergency'])).toEqual(['EMERGENCY', 'ERROR', 'DEBUG'])
  })

  it('reads what is stored, falling back to WARNING and everything more severe', () => {
    const defaults = ['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR', 'WARNING'] // WARNING and more severe
    expect(parseSeverities(null)).toEqual(defaults)
    expect(parseSeverities('not json')).toEqual(defaults)
    expect(parseSeverities('["NOPE"]')).toEqual(defaults)
    expect(parseSeverities('["INFO","ERROR"]')).toEqual(['ERROR', 'INFO'])
  })

  it('derives the import version from the parser version and the allow-list bitmask', () => {
    expect(importVersion(['ERROR', 'WARNING'])).toBe(PARSER_VERSION * 1000 + 0b11000)
    expect(importVersion(['EMERGENCY'])).toBe(PARSER_VERSION * 1000 + 1)
    expect(importVersion(['DEBUG'])).toBe(PARSER_VERSION * 1000 + 128)
    expect(PARSER_VERSION).toBe(12) // 11 is the reference's; 12 reads files again with this round's parsing
  })
})
