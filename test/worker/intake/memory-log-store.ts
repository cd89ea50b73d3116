import { createHash } from 'node:crypto'
import type { LogStore, StoredLog } from '../../../worker/intake/log-store.ts'

interface MemoryObject {
  bytes: Uint8Array
  uploaded: Date
  origin: string | null
  etag: string
}

/**
 * The whole `LogStore` contract over in-memory objects, for Node-side tests of the import and retention code
 * (the API tests run on miniflare's R2 through worker/platform/r2-log-store.ts). `objects` is live: tests may
 * inspect or change it.
 */
export function memoryLogStore(initial: Record<string, Uint8Array | { bytes?: Uint8Array; size?: number; uploaded?: Date }> = {}) {
  const objects = new Map<string, MemoryObject>()
  let version = 0
  const put = (key: string, bytes: Uint8Array, uploaded = new Date(), origin: string | null = null) =>
    objects.set(key, { bytes, uploaded, origin, etag: `etag-${++version}` })
  for (const [key, value] of Object.entries(initial)) {
    if (value instanceof Uint8Array) put(key, value)
    else put(key, value.bytes ?? new Uint8Array(value.size ?? 0), value.uploaded)
  }
  const stored = (key: string, object: MemoryObject): StoredLog => ({ key, size: object.bytes.length, etag: object.etag, uploaded: object.uploaded, origin: object.origin })
  const readAll = async (body: Uint8Array | ReadableStream<Uint8Array>) => (body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer()))

  const store: LogStore = {
    async list(prefix) {
      return [...objects.keys()].filter((key) => key.startsWith(prefix)).sort().map((key) => stored(key, objects.get(key)!))
    },
    async head(key) {
      const object = objects.get(key)
      return object ? stored(key, object) : null
    },
    async read(key, offset, length) {
      const object = objects.get(key)
      return object ? object.bytes.slice(offset, offset + Math.max(0, length)) : null
    },
    async write(key, body, length) {
      const bytes = await readAll(body)
      if (bytes.length !== length) throw new Error(`expected ${length} bytes, got ${bytes.length}`)
      put(key, bytes)
    },
    async copy(source, target, origin) {
      const object = objects.get(source.key)
      if (!object || object.etag !== source.etag) return null
      put(target, object.bytes, new Date(), origin)
      return createHash('sha256').update(object.bytes).digest('hex')
    },
    async delete(keys) {
      for (const key of typeof keys === 'string' ? [keys] : keys) objects.delete(key)
    },
  }
  return { store, objects }
}
