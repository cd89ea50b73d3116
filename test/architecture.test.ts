import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The layout's boundaries (conventions.md §9.1), enforced by reading import lines: a violation names the
 * file and the import.
 */
const ROOT = new URL('..', import.meta.url).pathname
const DATABASE_PACKAGES = ['@libsql/client', '@neondatabase/serverless', '@planetscale/database', 'pg', 'mysql2', 'libsql']

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules' || name === 'dist') return []
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path)
    return /\.(ts|tsx)$/.test(name) ? [path] : []
  })
}

function imports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => (m[1] ?? m[2])!)
}

function violations(dirs: string[], test: (specifier: string, file: string) => boolean): string[] {
  return dirs.flatMap((dir) => sources(dir).flatMap((file) => imports(file).filter((specifier) => test(specifier, file)).map((specifier) => `${file}: ${specifier}`)))
}

describe('architecture', () => {
  it('keeps database client packages inside drivers/', () => {
    const isDatabasePackage = (specifier: string) => DATABASE_PACKAGES.some((pkg) => specifier === pkg || specifier.startsWith(`${pkg}/`))
    expect(violations(['worker', 'shared', 'dashboard/src'], isDatabasePackage)).toEqual([])
  })

  it('uses Web-standard APIs only in worker/, shared/ and drivers/ (no node: modules)', () => {
    expect(violations(['worker', 'shared', 'drivers'], (specifier) => specifier.startsWith('node:'))).toEqual([])
  })

  it('keeps shared/ free of worker/, drivers/ and dashboard/ imports', () => {
    expect(violations(['shared'], (specifier) => /^\.\.\/+(\.\.\/)*(worker|drivers|dashboard)\//.test(specifier))).toEqual([])
  })

  it('keeps drivers/ free of worker/ imports', () => {
    expect(violations(['drivers'], (specifier) => specifier.includes('/worker/'))).toEqual([])
  })

  it('writes relative imports with their .ts extension in worker/, shared/ and drivers/', () => {
    expect(violations(['worker', 'shared', 'drivers'], (specifier) => specifier.startsWith('.') && !/\.(ts|json)$/.test(specifier))).toEqual([])
  })

  it('keeps Cloudflare platform types at the edge: worker/platform/, the entry, app.ts and env.ts', () => {
    const edge = (file: string) => file.startsWith('worker/platform/') || ['worker/index.ts', 'worker/app.ts', 'worker/env.ts', 'worker/worker-configuration.d.ts'].includes(file)
    const offenders = sources('worker')
      .filter((file) => !edge(file))
      .filter((file) => /\b(R2Bucket|R2Object|R2ObjectBody|MessageBatch|FixedLengthStream|DigestStream|D1Database|ScheduledController)\b|\bQueue</.test(readFileSync(join(ROOT, file), 'utf8')))
    expect(offenders).toEqual([])
  })

  it('lets only worker/http and routes files touch Request or Response', () => {
    const allowed = (file: string) =>
      file.startsWith('worker/http/') || file.endsWith('/routes.ts') || ['worker/index.ts', 'worker/app.ts'].includes(file)
    const offenders = sources('worker')
      .filter((file) => !allowed(file))
      .filter((file) => /\bnew Response\(|: Request\b|\bRequest\)/.test(readFileSync(join(ROOT, file), 'utf8')))
    expect(offenders.map((file) => relative(ROOT, join(ROOT, file)))).toEqual([])
  })
})
