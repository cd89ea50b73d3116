import { originalPositionFor, sourceContentFor, type TraceMap } from '@jridgewell/trace-mapping'
import { readRow } from '../../../drivers/read-row.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import type { LogStore } from '../../intake/log-store.ts'
import type { FrameSource, ResolvedStack, StackToResolve } from '../plugin.ts'
import { cachedMap, parseAndCache } from './map-cache.ts'
import { mapFileName } from './source-maps.ts'

/**
 * A JavaScript frame's location: `…(.js|.mjs|.cjs):line:col` (reference §4.4), the file an absolute URL
 * (`https://shop.example/assets/app-3f9a.js`), a path, or sentry-cli's `~/assets/…`, a query string allowed.
 * The last match on a line wins (`at fn (url:1:2)`, `fn@url:1:2`, `at url:1:2`).
 */
const JS_LOCATION = /([^\s()@]*?\.[cm]?js)(?:\?[^\s():]*)?:(\d+):(\d+)/g
const HAS_JS_LOCATION = /\.[cm]?js(?:\?[^\s():]*)?:\d+:\d+/
/** The function name of a V8 (`at fn (`) or Firefox/Safari (`fn@`) frame. */
const FUNCTION_NAME = /^\s*at (?:async )?(.+?) \(|^\s*([^\s@()]+)@/
/** Source lines kept on each side of a resolved frame, each cut to this many characters. */
const CONTEXT_LINES = 5
const CONTEXT_CHARS = 500
/** Frames resolved per stack (a runaway recursion's stack stays cheap). */
const MAX_FRAMES = 100

interface StoredMap {
  readonly objectKey: string
  readonly size: number
  readonly createdAt: string
}

/**
 * The `resolveStack` hook of the releases plugin (reference §4.4 "De-minification", issue 14): each
 * JavaScript frame is looked up by the event's release and the file's basename — the map uploaded for
 * `app.js`, or as `app.js.map` — decoded with `@jridgewell/trace-mapping` (the nearest mapping at or before
 * the column on that line) and rewritten as `    at name (source:line:col)`, in place, so the stack keeps its
 * lines; the name is the original one the caller's mapping gives, else the minified one. The release's maps are listed once per digest batch (one query) and each map is read from the log
 * bucket and parsed once per batch at most (then kept per isolate, map-cache.ts). Null when nothing resolved.
 */
export async function resolveStack(event: StackToResolve): Promise<ResolvedStack | null> {
  const { release, stack, services, memo, scope } = event
  if (release === null || services.logs === null) return null
  const logs = services.logs
  const lines = stack.split('\n')
  if (!HAS_JS_LOCATION.test(stack)) return null
  const maps = await releaseMaps(scope, release, memo)
  if (maps.size === 0) return null
  const found = new Map<number, { map: TraceMap; source: string; line: number; column: number; name: string | null }>()
  for (let index = 0; index < lines.length && found.size < MAX_FRAMES; index++) {
    const location = lastLocation(lines[index]!)
    if (!location) continue
    const base = mapFileName(location.file)
    const stored = maps.get(base) ?? maps.get(`${base}.map`)
    if (!stored) continue
    const map = await loadMap(logs, stored, memo)
    if (!map) continue
    const original = originalPositionFor(map, { line: location.line, column: Math.max(0, location.column - 1) })
    if (original.source === null || original.line === null || original.column === null) continue
    found.set(index, { map, source: original.source, line: original.line, column: original.column, name: original.name })
  }
  const sources = new Map<number, FrameSource>()
  for (const [index, frame] of found) {
    const line = lines[index]!
    const at = `${presentSource(frame.source)}:${frame.line}:${frame.column + 1}`
    // A frame's own position is inside its function; the name of the function is the token its caller
    // called, which the caller's (next line's) mapping names — as Sentry's symbolicator does.
    const name = found.get(index + 1)?.name ?? functionName(line) ?? '<anonymous>'
    lines[index] = `${/^\s*/.exec(line)![0] || '    '}at ${name} (${at})`
    const context = contextOf(frame.map, frame.source, frame.line, at)
    if (context) sources.set(index, context)
  }
  return found.size === 0 ? null : { stack: lines.join('\n'), sources }
}

function lastLocation(line: string): { file: string; line: number; column: number } | null {
  let last: RegExpExecArray | null = null
  JS_LOCATION.lastIndex = 0
  for (let match = JS_LOCATION.exec(line); match !== null; match = JS_LOCATION.exec(line)) last = match
  JS_LOCATION.lastIndex = 0
  if (!last) return null
  const lineNumber = Number(last[2])
  const column = Number(last[3])
  return lineNumber >= 1 ? { file: last[1]!, line: lineNumber, column } : null
}

function functionName(line: string): string | null {
  const match = FUNCTION_NAME.exec(line)
  const name = match?.[1] ?? match?.[2]
  return name && !/\.[cm]?js:\d+/.test(name) ? name : null
}

/**
 * A map's source as the stack shows it: bundler prefixes (`webpack://app/`) and leading `./`, `../` dropped,
 * so `../src/checkout.ts` reads `src/checkout.ts` — the repository path the code-host link needs.
 */
export function presentSource(source: string): string {
  return source
    .replace(/^webpack:\/\/[^/]*\//, '')
    .replace(/^[a-z][a-z0-9+.-]*:\/\/\/?/i, (scheme) => (/^(https?):/i.test(scheme) ? scheme : ''))
    .replace(/^(?:\.\.?\/)+/, '')
}

function contextOf(map: TraceMap, source: string, line: number, at: string): FrameSource | null {
  const content = sourceContentFor(map, source)
  if (content === null) return null
  const all = content.split(/\r?\n/)
  const index = line - 1
  if (index < 0 || index >= all.length) return null
  const cut = (text: string) => text.slice(0, CONTEXT_CHARS)
  return { pre: all.slice(Math.max(0, index - CONTEXT_LINES), index).map(cut), line: cut(all[index]!), post: all.slice(index + 1, index + 1 + CONTEXT_LINES).map(cut), at }
}

/** The release's maps by file name: one query per release per digest batch. */
function releaseMaps(scope: AppScope, release: string, memo: Map<string, unknown>): Promise<Map<string, StoredMap>> {
  const key = `releases:maps:${release}`
  let pending = memo.get(key) as Promise<Map<string, StoredMap>> | undefined
  if (!pending) {
    const rel = scope.db.dialect.quote('release')
    pending = scope.db.execute({ sql: `SELECT file, object_key, size, created_at FROM ${scope.t.sourceMaps} WHERE ${rel} = ?`, args: [release] }).then(({ rows }) => {
      const maps = new Map<string, StoredMap>()
      for (const row of rows) {
        const read = readRow(row, { file: 'string', object_key: 'string', size: 'number', created_at: 'string' }, 'source map')
        maps.set(read.file, { objectKey: read.object_key, size: read.size, createdAt: read.created_at })
      }
      return maps
    })
    memo.set(key, pending)
  }
  return pending
}

/** A parsed map: from the isolate's cache, or read from the log bucket once per batch. */
function loadMap(logs: LogStore, stored: StoredMap, memo: Map<string, unknown>): Promise<TraceMap | null> {
  const cacheKey = `${stored.objectKey}|${stored.size}|${stored.createdAt}`
  const hit = cachedMap(cacheKey)
  if (hit) return Promise.resolve(hit)
  const key = `releases:map:${cacheKey}`
  let pending = memo.get(key) as Promise<TraceMap | null> | undefined
  if (!pending) {
    pending = logs.read(stored.objectKey, 0, stored.size).then((bytes) => (bytes === null ? null : parseAndCache(cacheKey, new TextDecoder().decode(bytes), bytes.length)))
    memo.set(key, pending)
  }
  return pending
}
