import { describe, expect, it } from 'vitest'
import { collisionName, isLogFileName, isSafeRelativePath, parseUploadPath, splitIncomingPath } from '../../../worker/intake/log-file-name.ts'

describe('log file names', () => {
  it.each([
    ['laravel.log', true],
    ['LARAVEL.LOG', true],
    ['laravel.log.1', true],
    ['laravel-2026-01-01.log', true],
    ['app.jsonl', true],
    ['app.ndjson', true],
    ['laravel.log.gz', false],
    ['laravel.log.old', false],
    ['notes.txt', false],
    ['log', false],
  ])('%s is a log file: %s', (name, expected) => {
    expect(isLogFileName(name)).toBe(expected)
  })

  it('accepts sane relative upload paths and rejects the rest', () => {
    expect(parseUploadPath('billing/laravel.log')).toBe('billing/laravel.log')
    expect(parseUploadPath('laravel.log.3')).toBe('laravel.log.3')
    expect(parseUploadPath('a/b/c/app_1-x.log')).toBe('a/b/c/app_1-x.log')
    for (const path of [undefined, '', ' ', '/', '//', '/ /']) {
      expect(() => parseUploadPath(path), String(path)).toThrow('file is empty: name the uploaded log file, e.g. file=billing/laravel.log.')
    }
    for (const path of ['/x.log', '../x.log', 'a/../x.log', './x.log', 'a//x.log', '.x.log', 'a/b/c/d/x.log', 'a b.log', 'ü.log', `${'a'.repeat(129)}.log`]) {
      expect(() => parseUploadPath(path), String(path)).toThrow(/^file must be a relative path/)
    }
    expect(() => parseUploadPath('billing/readme.txt')).toThrow('file must name a log file ending in .log, .log.N, .jsonl or .ndjson.')
  })

  it('splits the module folder off', () => {
    expect(splitIncomingPath('billing/laravel.log')).toEqual({ folder: 'billing', rest: 'laravel.log', name: 'laravel.log' })
    expect(splitIncomingPath('billing/2026/app.log')).toEqual({ folder: 'billing', rest: '2026/app.log', name: 'app.log' })
    expect(splitIncomingPath('laravel.log')).toEqual({ folder: null, rest: 'laravel.log', name: 'laravel.log' })
  })

  it('refuses traversal in stored keys', () => {
    expect(isSafeRelativePath('a/b.log')).toBe(true)
    for (const path of ['', '/a.log', 'a/../b.log', '../b.log', 'a//b.log', './a.log']) expect(isSafeRelativePath(path), path).toBe(false)
  })

  it('names a colliding archive with -YYYYMMDD-HHMMSS-hash6 before the log extension', () => {
    expect(collisionName('laravel.log', '2026-08-20 09:14:02', 'a1b2c3')).toBe('laravel-20260820-091402-a1b2c3.log')
    expect(collisionName('laravel.log.2', '2026-08-20 09:14:02', 'a1b2c3')).toBe('laravel-20260820-091402-a1b2c3.log.2')
    expect(collisionName('app.jsonl', '2026-08-20 09:14:02', 'a1b2c3')).toBe('app-20260820-091402-a1b2c3.jsonl')
  })
})
