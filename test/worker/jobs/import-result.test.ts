import { describe, expect, it } from 'vitest'
import { addByType, addFileResult, emptyFileResult, emptyResult, mergeResults, presentResult } from '../../../worker/jobs/import-result.ts'
import type { ImportResult } from '../../../worker/jobs/import-result.ts'

const file = (path: string, counts: Partial<ReturnType<typeof emptyFileResult>> = {}) => ({ ...emptyFileResult(path, 'laravel'), ...counts })

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
      file_results: [],
    })
  })

  it('sums a file read across a job\'s messages into one entry and keeps the others in order', () => {
    const a = emptyResult(['ERROR'])
    addFileResult(a, file('shop/laravel.log', { read: 10, stored: 7, skipped: { DEBUG: 2, INFO: 1 }, unparseable: 1 }))
    addFileResult(a, file('access.log', { format: 'nginx_access', read: 4, stored: 4 }))
    const b = emptyResult(['ERROR'])
    addFileResult(b, file('shop/laravel.log', { read: 5, stored: 3, skipped: { DEBUG: 1, NOTICE: 1 }, already_stored: 0, unparseable: 2 }))
    const merged = mergeResults(a, b)
    expect(presentResult(merged).file_results).toEqual([
      { path: 'shop/laravel.log', format: 'laravel', read: 15, stored: 10, skipped: { NOTICE: 1, INFO: 1, DEBUG: 3 }, already_stored: 0, unparseable: 3 },
      { path: 'access.log', format: 'nginx_access', read: 4, stored: 4, skipped: {}, already_stored: 0, unparseable: 0 },
    ])
    // merging copies: the earlier part is left as it was
    expect(a.file_results[0]).toMatchObject({ read: 10, skipped: { DEBUG: 2, INFO: 1 } })
  })

  it('merges into a stored result from before file_results existed', () => {
    const { file_results: _none, ...old } = emptyResult(['ERROR'])
    const part = emptyResult(['ERROR'])
    addFileResult(part, file('a.log', { read: 1, stored: 1 }))
    expect(mergeResults(old as ImportResult, part).file_results).toEqual([file('a.log', { read: 1, stored: 1 })])
  })
})
