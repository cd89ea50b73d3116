import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { QUIET_WRANGLER_ENV } from '../wrangler-env.ts'

const ROOT = new URL('../..', import.meta.url).pathname

/** design.md §5: the worker bundle (minified, as `wrangler deploy` builds it) and the dashboard's first-load JS. */
export function bundleSizes(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-bundle-'))
  try {
    execFileSync('npx', ['wrangler', 'deploy', '--dry-run', '--minify', '--outdir', dir], { cwd: ROOT, env: { ...process.env, ...QUIET_WRANGLER_ENV }, stdio: 'ignore' })
    const worker = readFileSync(join(dir, 'index.js'))
    const lines = [`worker bundle: ${kib(worker.length)} minified, ${kib(gzipSync(worker).length)} gzipped (budget 1 MB minified)`]
    const assets = join(ROOT, 'dashboard', 'dist', 'assets')
    if (existsSync(assets)) {
      const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'))
      const gzipped = scripts.reduce((sum, name) => sum + gzipSync(readFileSync(join(assets, name))).length, 0)
      const raw = scripts.reduce((sum, name) => sum + statSync(join(assets, name)).size, 0)
      lines.push(`dashboard JS: ${kib(raw)} raw, ${kib(gzipped)} gzipped across ${scripts.length} file(s) (budget 150 KB gzipped)`)
    }
    return lines
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`
}
