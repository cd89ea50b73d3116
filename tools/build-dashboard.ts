/**
 * `npm run build`: builds the dashboard (Preact + Vite, dashboard/) into `dashboard/dist`, the worker's
 * `[assets]` directory, and prints the JavaScript a browser loads on first visit, gzipped (design.md §5:
 * at most 150 KB). `ensureDashboardBuilt()` is what `npm start` and `npm test` call: it rebuilds only when a
 * source under `dashboard/` (not `dist`) or `shared/` is newer than the last build, so a fresh clone needs
 * no extra command.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

const ROOT = new URL('..', import.meta.url).pathname
const DASHBOARD = join(ROOT, 'dashboard')
const DIST = join(DASHBOARD, 'dist')
/** design.md §5. */
export const FIRST_LOAD_JS_BUDGET = 150 * 1024

export async function ensureDashboardBuilt(): Promise<void> {
  const built = join(DIST, 'index.html')
  if (existsSync(built) && isBuiltFromCurrentSources(statSync(built).mtimeMs)) return
  await buildDashboard()
}

function isBuiltFromCurrentSources(builtAt: number): boolean {
  const newest = Math.max(newestMtime(DASHBOARD, new Set([DIST, join(DASHBOARD, 'node_modules')])), newestMtime(join(ROOT, 'shared')))
  return newest <= builtAt
}

export async function buildDashboard(): Promise<{ firstLoadGzipBytes: number }> {
  // Imported lazily: `npm test` on an up-to-date build never loads Vite.
  const { build } = await import('vite')
  // Vite derives the build's mode from NODE_ENV, and vitest sets it to `test`, which would ship Preact's
  // development JSX runtime (about 10 KB more, gzipped). The dashboard is always built for production.
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await build({ configFile: join(DASHBOARD, 'vite.config.ts'), mode: 'production', logLevel: 'warn' })
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  }
  const size = firstLoadJs()
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  console.log(
    `dashboard: built into dashboard/dist — first-load JS ${kb(size.gzip)} gzipped (${kb(size.raw)} raw, ${size.files.length} file${size.files.length === 1 ? '' : 's'}; budget ${kb(FIRST_LOAD_JS_BUDGET)})`,
  )
  if (size.gzip > FIRST_LOAD_JS_BUDGET) console.warn(`dashboard: first-load JS is over the ${kb(FIRST_LOAD_JS_BUDGET)} budget (design.md §5)`)
  return { firstLoadGzipBytes: size.gzip }
}

/**
 * The JavaScript index.html loads up front — its module entry and every `modulepreload`ed chunk — each
 * gzipped at the default level (what a CDN serves). Lazily imported chunks are not counted.
 */
export function firstLoadJs(dist = DIST): { files: string[]; raw: number; gzip: number } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
  const files = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)].map((match) => match[1]!)
  let raw = 0
  let gzip = 0
  for (const file of files) {
    const bytes = readFileSync(join(dist, file.replace(/^\//, '')))
    raw += bytes.length
    gzip += gzipSync(bytes).length
  }
  return { files, raw, gzip }
}

function newestMtime(dir: string, skip: ReadonlySet<string> = new Set()): number {
  if (!existsSync(dir) || skip.has(dir)) return 0
  let newest = statSync(dir).mtimeMs
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path, skip) : statSync(path).mtimeMs)
  }
  return newest
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildDashboard().catch((error) => {
    console.error(error)
    process.exit(1)
  })
}
