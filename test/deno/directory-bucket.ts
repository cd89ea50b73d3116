import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

/**
 * The part of R2's bucket API the API tests use (`put`, `get`, `list`, `delete`), over the directory the Deno
 * server's log store uses (worker/platform/deno/fs-log-store.ts: `<dir>/<key>`), so a test can drop a
 * file into `incoming/` or read the archive as it does on miniflare's R2.
 */
export function directoryBucket(directory: string) {
  const pathOf = (key: string) => join(directory, key)
  return {
    async put(key: string, body: string | Uint8Array) {
      mkdirSync(dirname(pathOf(key)), { recursive: true })
      writeFileSync(pathOf(key), body)
    },
    async get(key: string) {
      try {
        const bytes = readFileSync(pathOf(key))
        return { text: async () => bytes.toString('utf8') }
      } catch {
        return null
      }
    },
    async delete(key: string) {
      rmSync(pathOf(key), { force: true })
    },
    async list(options: { prefix?: string } = {}) {
      const prefix = options.prefix ?? ''
      const keys = walk(directory)
        .map((path) => relative(directory, path))
        .filter((key) => key.startsWith(prefix) && !key.startsWith('.meta/'))
        .sort()
      return { objects: keys.map((key) => ({ key, size: statSync(pathOf(key)).size })), truncated: false }
    },
  }
}

function walk(directory: string): string[] {
  let entries
  try {
    entries = readdirSync(directory, { withFileTypes: true })
  } catch {
    return []
  }
  return entries.flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return walk(path)
    return entry.name.startsWith('.tmp-') ? [] : [path]
  })
}
