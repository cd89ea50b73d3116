import { unzipSync } from 'fflate'
import { InvalidInputError } from '../../../errors.ts'
import { mapFileName } from '../source-maps.ts'

/** One source map an artifact bundle carries, named as the resolver looks it up: the minified file's basename. */
export interface BundledMap {
  readonly file: string
  readonly bytes: Uint8Array
}

interface ManifestEntry {
  readonly type?: unknown
  readonly url?: unknown
  readonly headers?: unknown
}

/**
 * The source maps of a sentry-cli artifact bundle (sentry-cli-protocol.md "sourcemaps upload"): a zip with
 * `manifest.json` (`files`: path → `{type, url, headers}`) and the files. Each `source_map` is named after the
 * `minified_source` whose `sourcemap` header (relative to the file's URL) points at it — frames name the
 * minified file — or, without one, after its own URL minus `.map`. The zip is read with fflate.
 */
export function bundledMaps(zip: Uint8Array): BundledMap[] {
  let entries: Record<string, Uint8Array>
  try {
    entries = unzipSync(zip)
  } catch {
    throw new InvalidInputError('The artifact bundle is not a readable zip file.')
  }
  const manifestBytes = entries['manifest.json']
  if (!manifestBytes) throw new InvalidInputError('The artifact bundle has no manifest.json.')
  let files: Record<string, ManifestEntry>
  try {
    const manifest = JSON.parse(new TextDecoder().decode(manifestBytes)) as { files?: Record<string, ManifestEntry> }
    files = manifest.files && typeof manifest.files === 'object' ? manifest.files : {}
  } catch {
    throw new InvalidInputError('The artifact bundle manifest is not JSON.')
  }
  const minifiedByMap = new Map<string, string>()
  for (const entry of Object.values(files)) {
    if (entry.type !== 'minified_source' || typeof entry.url !== 'string') continue
    const headers = entry.headers && typeof entry.headers === 'object' ? (entry.headers as Record<string, unknown>) : {}
    const sourcemap = headers.sourcemap ?? headers.Sourcemap ?? headers['x-sourcemap']
    if (typeof sourcemap === 'string') minifiedByMap.set(resolveRelative(entry.url, sourcemap), entry.url)
  }
  const maps: BundledMap[] = []
  for (const [path, entry] of Object.entries(files)) {
    if (entry.type !== 'source_map' || typeof entry.url !== 'string') continue
    const bytes = entries[path]
    if (!bytes) continue
    const minified = minifiedByMap.get(entry.url)
    const file = mapFileName(minified ?? entry.url.replace(/\.map$/, ''))
    if (file !== '') maps.push({ file, bytes })
  }
  return maps
}

/** `~/assets/app.js` + `app.js.map` → `~/assets/app.js.map` (a URL relative to the file's directory). */
function resolveRelative(base: string, relative: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(relative) || relative.startsWith('~/') || relative.startsWith('/')) return relative
  const parts = base.split('/').slice(0, -1)
  for (const segment of relative.split('/')) {
    if (segment === '..') parts.pop()
    else if (segment !== '.') parts.push(segment)
  }
  return parts.join('/')
}
