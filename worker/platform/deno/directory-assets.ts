import type { AssetServer } from '../../env.ts'

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  txt: 'text/plain; charset=utf-8',
  map: 'application/json',
}

/**
 * The dashboard's built files from a directory, as Workers' `[assets]` serves them (wrangler.toml):
 * `/` is index.html, and a path with no file is index.html too (`not_found_handling =
 * "single-page-application"`), so the dashboard's own routes load. Paths never leave the directory.
 */
export function directoryAssets(directory: string): AssetServer {
  const root = directory.replace(/\/+$/, '')
  return {
    async fetch(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method Not Allowed', { status: 405 })
      const parts = decodedPath(new URL(request.url).pathname)?.split('/').filter(Boolean) ?? null
      const safe = parts !== null && !parts.some((part) => part === '..' || part === '.' || part.includes('\\') || part.includes('\0'))
      const file = (safe ? await readFile(`${root}/${parts.join('/')}`) : null) ?? (await readFile(`${root}/index.html`))
      if (!file) return new Response('Not Found', { status: 404 })
      const type = CONTENT_TYPES[file.path.slice(file.path.lastIndexOf('.') + 1)] ?? 'application/octet-stream'
      return new Response(request.method === 'HEAD' ? null : file.bytes, { headers: { 'content-type': type } })
    },
  }
}

/** The path with its escapes decoded; null when they are malformed (served as a path with no file). */
function decodedPath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname)
  } catch {
    return null
  }
}

async function readFile(path: string): Promise<{ path: string; bytes: Uint8Array<ArrayBuffer> } | null> {
  try {
    const info = await Deno.stat(path)
    const file = info.isDirectory ? `${path}/index.html` : path
    return { path: file, bytes: await Deno.readFile(file) }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return null
    throw error
  }
}
