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

/** A file's code without its comments (comments may name other platforms' APIs). */
function codeOf(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1')
}

describe('architecture', () => {
  it('keeps database client packages inside drivers/', () => {
    const isDatabasePackage = (specifier: string) => DATABASE_PACKAGES.some((pkg) => specifier === pkg || specifier.startsWith(`${pkg}/`))
    expect(violations(['worker', 'shared', 'dashboard/src'], isDatabasePackage)).toEqual([])
  })

  it('uses Web-standard APIs only in worker/, shared/ and drivers/ (no node: modules)', () => {
    // The Deno adapters may use Deno's built-ins, `node:crypto` among them (a streaming hash Web Crypto lacks).
    const found = violations(['worker', 'shared', 'drivers'], (specifier) => specifier.startsWith('node:'))
    expect(found.filter((line) => !line.startsWith('worker/platform/deno/'))).toEqual([])
    expect(found).toEqual(['worker/platform/deno/fs-log-store.ts: node:crypto'])
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

  it('keeps Cloudflare platform types at the edge: worker/platform/cloudflare/ and the Workers entry', () => {
    const edge = (file: string) => file.startsWith('worker/platform/cloudflare/') || ['worker/index.ts', 'worker/worker-configuration.d.ts'].includes(file)
    const cloudflareTypes = /\b(R2Bucket|R2Object|R2ObjectBody|MessageBatch|FixedLengthStream|DigestStream|D1Database|ScheduledController|ExecutionContext|ExportedHandler|Fetcher)\b|\bQueue<|\bCloudflare\./
    const offenders = sources('worker')
      .filter((file) => !edge(file))
      .filter((file) => cloudflareTypes.test(codeOf(file)))
    expect(offenders).toEqual([])
  })

  it('keeps Deno APIs inside worker/platform/deno/ (and that folder out of the Workers build)', () => {
    const offenders = sources('worker')
      .filter((file) => !file.startsWith('worker/platform/deno/'))
      .filter((file) => /\bDeno\./.test(codeOf(file)))
    expect(offenders).toEqual([])
    const workersEntry = codeOf('worker/index.ts')
    expect(workersEntry).not.toMatch(/platform\/deno\//)
  })

  it('lets only worker/http and routes files touch Request or Response', () => {
    const allowed = (file: string) =>
      file.startsWith('worker/http/') || file.startsWith('worker/platform/') || file.endsWith('/routes.ts') || ['worker/index.ts', 'worker/app.ts', 'worker/env.ts'].includes(file)
    const offenders = sources('worker')
      .filter((file) => !allowed(file))
      .filter((file) => /\bnew Response\(|: Request\b|\bRequest\)/.test(readFileSync(join(ROOT, file), 'utf8')))
    expect(offenders.map((file) => relative(ROOT, join(ROOT, file)))).toEqual([])
  })
})
