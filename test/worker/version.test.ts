import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SERVICE_VERSION } from '../../worker/version.ts'

describe('SERVICE_VERSION', () => {
  it('matches package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    expect(SERVICE_VERSION).toBe(pkg.version)
  })
})
