import { AnyMap, type TraceMap } from '@jridgewell/trace-mapping'

/**
 * Parsed source maps kept per isolate (module scope), least recently used first out, up to ~32 MiB of map
 * text: a burst of events from one build parses its maps once, and two 16 MiB maps still fit. The key names
 * the stored version (object key, size and upload time), so a re-uploaded map is parsed afresh.
 */
const MAX_CACHED_BYTES = 32 * 1024 * 1024

const cache = new Map<string, { map: TraceMap; bytes: number }>()
let cachedBytes = 0

export function cachedMap(key: string): TraceMap | null {
  const hit = cache.get(key)
  if (!hit) return null
  cache.delete(key)
  cache.set(key, hit)
  return hit.map
}

/** Parses map text with `@jridgewell/trace-mapping` (index maps with `sections` too) and caches it. */
export function parseAndCache(key: string, text: string, bytes: number): TraceMap {
  const map = new AnyMap(text)
  if (bytes > MAX_CACHED_BYTES) return map
  cache.set(key, { map, bytes })
  cachedBytes += bytes
  for (const [oldest, entry] of cache) {
    if (cachedBytes <= MAX_CACHED_BYTES) break
    cache.delete(oldest)
    cachedBytes -= entry.bytes
  }
  return map
}

/** Empties the cache (tests). */
export function clearMapCache(): void {
  cache.clear()
  cachedBytes = 0
}
