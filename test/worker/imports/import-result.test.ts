import { describe, expect, it } from 'vitest'
import { addByType, emptyResult, mergeResults, presentResult } from '../../../worker/imports/import-result.ts'

describe('import results', () => {
  it('sorts by_type keys, as the reference ksorts them', () => {
    const result = emptyResult(['ERROR'])
    addByType(result, 'nginx_access', 3)
    addByType(result, 'console', 0)
    addByType(result, 'laravel', 4)
    expect(Object.keys(presentResult(result).by_type)).toEqual(['console', 'laravel', 'nginx_access'])
  })

  it('adds a later part of a job to what came before', () => {
    const a = { ...emptyResult(['ERROR']), files: 1, events: 5, groups: 2, by_type: { laravel: 5 }, errors: ['x: y'] }
    const b = { ...emptyResult(['ERROR', 'WARNING']), files: 1, events: 3, groups: 1, by_type: { laravel: 2, console: 1 } }
    expect(mergeResults(a, b)).toEqual({
      files: 2,
      events: 8,
      groups: 3,
      skipped: 0,
      processed: 0,
      ingested_severities: ['ERROR', 'WARNING'],
      by_type: { laravel: 7, console: 1 },
      errors: ['x: y'],
    })
  })
})
