import type { LogStore, StoredLog } from '../../intake/log-store.ts'
import { hexDigest } from '../../intake/sha256-bytes.ts'

/**
 * workerd's streaming digest. It lives on `crypto` (`crypto.DigestStream`; there is no global of that name
 * under wrangler dev or in production), and DOM's `Crypto`, which test builds see, does not declare it.
 */
const StreamingDigest = (crypto as Crypto & { readonly DigestStream: typeof DigestStream }).DigestStream

/**
 * The log store on an R2 bucket (the `LOGS` binding). R2 needs a streamed body's length up front
 * (`FixedLengthStream`, which also refuses a body that lies about it), lists at most 1000 keys and deletes at
 * most 1000 keys per call, and has no server-side copy — so a copy streams through the worker, hashed on
 * the way (`crypto.DigestStream`) at no extra read.
 */
export function r2LogStore(bucket: R2Bucket): LogStore {
  return {
    async list(prefix) {
      const objects: StoredLog[] = []
      let cursor: string | undefined
      for (;;) {
        const page = await bucket.list({ prefix, cursor })
        objects.push(...page.objects.map(toStoredLog))
        if (!page.truncated) return objects
        cursor = page.cursor
      }
    },
    async head(key) {
      const object = await bucket.head(key)
      return object ? toStoredLog(object) : null
    },
    async read(key, offset, length) {
      if (length <= 0) return (await bucket.head(key)) ? new Uint8Array() : null
      const object = await bucket.get(key, { range: { offset, length } })
      return object ? new Uint8Array(await object.arrayBuffer()) : null
    },
    async write(key, body, length) {
      await bucket.put(key, body instanceof Uint8Array ? body : body.pipeThrough(new FixedLengthStream(length)))
    },
    async copy(source, target, origin) {
      const object = await bucket.get(source.key, { onlyIf: { etagMatches: source.etag } })
      if (object === null || !('body' in object)) return null
      const digest = new StreamingDigest('SHA-256')
      const writer = digest.getWriter()
      const hashing = new TransformStream<Uint8Array, Uint8Array>({
        async transform(chunk, controller) {
          await writer.write(chunk)
          controller.enqueue(chunk)
        },
        async flush() {
          await writer.close()
        },
      })
      await bucket.put(target, object.body.pipeThrough(hashing).pipeThrough(new FixedLengthStream(source.size)), {
        customMetadata: { origin },
        httpMetadata: { contentType: 'text/plain; charset=utf-8' },
      })
      return hexDigest(await digest.digest)
    },
    async delete(keys) {
      const list = typeof keys === 'string' ? [keys] : keys
      for (let i = 0; i < list.length; i += 1000) await bucket.delete(list.slice(i, i + 1000))
    },
  }
}

function toStoredLog(object: R2Object): StoredLog {
  return { key: object.key, size: object.size, etag: object.etag, uploaded: object.uploaded, origin: object.customMetadata?.origin ?? null }
}
