import { describe, expect, it } from 'vitest'
import { combineFileResults, describeFileResult, describeImport } from '../../../../dashboard/src/lib/import-summary.ts'
import type { FileImportResult } from '../../../../shared/api.ts'

const file = (counts: Partial<FileImportResult> = {}): FileImportResult => ({
  path: 'shop/laravel.log',
  format: 'laravel',
  read: 0,
  stored: 0,
  skipped: {},
  already_stored: 0,
  unparseable: 0,
  ...counts,
})

describe('describeFileResult', () => {
  it('says what was read, stored, skipped by severity and left unparseable', () => {
    expect(describeFileResult(file({ read: 12, stored: 9, skipped: { INFO: 1, DEBUG: 2 }, unparseable: 1 }))).toBe(
      'read as laravel: 12 entries, 9 stored, 3 skipped by severity (INFO 1, DEBUG 2), 1 line unparseable',
    )
    expect(describeFileResult(file({ format: 'nginx_error', read: 1, stored: 1 }))).toBe('read as nginx_error: 1 entry, 1 stored')
    expect(describeFileResult(file({ read: 4, stored: 1, already_stored: 3, unparseable: 2 }))).toBe(
      'read as laravel: 4 entries, 1 stored, 3 already stored, 2 lines unparseable',
    )
  })
})

describe('combineFileResults', () => {
  it('adds a job\'s counts to the request\'s, per path', () => {
    const first = [file({ read: 10, stored: 8, skipped: { DEBUG: 2 } })]
    const later = [file({ read: 5, stored: 4, skipped: { DEBUG: 1, INFO: 1 }, unparseable: 1 }), file({ path: 'b.log', read: 1, stored: 1 })]
    expect(combineFileResults(first, later)).toEqual([
      file({ read: 15, stored: 12, skipped: { DEBUG: 3, INFO: 1 }, unparseable: 1 }),
      file({ path: 'b.log', read: 1, stored: 1 }),
    ])
    expect(first[0]!.read).toBe(10) // inputs unchanged
  })
})

describe('describeImport', () => {
  it('summarises the totals', () => {
    expect(describeImport({ files: 2, events: 37, groups: 5, skipped: 1, errors: ['x: y'] } as never)).toBe('2 files, 37 events, 5 issue groups (1 skipped); 1 error')
  })
})
