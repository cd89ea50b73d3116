import { OperationalError } from '../errors.ts'
import { hexDigest } from './sha256-bytes.ts'

/**
 * workerd's streaming digest. It lives on `crypto` (`crypto.DigestStream`; there is no global of that name
 * under wrangler dev or in production), and DOM's `Crypto`, which test builds see, does not declare it.
 */
const StreamingDigest = (crypto as Crypto & { readonly DigestStream: typeof DigestStream }).DigestStream

export const OBJECT_CHANGED_MESSAGE = 'The file changed or disappeared while it was being imported; try again.'

/**
 * Copies an incoming or staged object to its archive key and returns the SHA-256 of its content. R2 has no
 * server-side copy, so the body streams through the worker anyway; hashing it on the way costs no extra read
 * (`crypto.DigestStream`), and the hash tells the same bytes arriving under another name
 * (content-duplicates.ts). `FixedLengthStream` gives R2 the length it needs up front.
 */
export async function archiveCopy(bucket: R2Bucket, object: R2Object, key: string, origin: string): Promise<string> {
  const source = await bucket.get(object.key, { onlyIf: { etagMatches: object.etag } })
  if (source === null || !('body' in source)) throw new OperationalError(OBJECT_CHANGED_MESSAGE)
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
  await bucket.put(key, source.body.pipeThrough(hashing).pipeThrough(new FixedLengthStream(object.size)), {
    customMetadata: { origin },
    httpMetadata: { contentType: 'text/plain; charset=utf-8' },
  })
  return hexDigest(await digest.digest)
}
