import { describe, expect, it } from 'vitest'
import { normalizeSeverity } from '../../../worker/digest/severity.ts'

describe('normalizeSeverity', () => {
  it.each([
    ['ERROR', 'ERROR'],
    ['error', 'ERROR'],
    [' Warning ', 'WARNING'],
    ['WARN', 'WARNING'],
    ['warn', 'WARNING'],
    ['ERR', 'ERROR'],
    ['FATAL', 'ERROR'],
    ['fatal', 'ERROR'],
    ['TRACE', 'DEBUG'],
    ['', 'INFO'],
    ['emergency', 'EMERGENCY'],
    ['ALERT', 'ALERT'],
    ['CRITICAL', 'CRITICAL'],
    ['NOTICE', 'NOTICE'],
    ['INFO', 'INFO'],
    ['DEBUG', 'DEBUG'],
    ['CRIT', 'CRITICAL'],
    ['EMERG', 'EMERGENCY'],
  ])('maps %j to %s', (raw, expected) => {
    expect(normalizeSeverity(raw)).toBe(expected)
  })

  it('maps words outside the vocabulary to INFO', () => {
    expect(normalizeSeverity('CUSTOM')).toBe('INFO')
    expect(normalizeSeverity('__proto__')).toBe('INFO')
  })
})
