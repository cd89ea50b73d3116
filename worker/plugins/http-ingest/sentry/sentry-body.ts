import { MalformedRequestError, PayloadTooLargeError, UnsupportedMediaError } from '../../../errors.ts'

/**
 * The decoded body of a Sentry request, refused with 413 as soon as the DECODED size passes `maxBytes` — a
 * small gzip bomb never grows past the limit in memory. `gzip` and `deflate` (zlib-wrapped, as the SDKs send
 * it) are decoded with the Web-standard `DecompressionStream`; `identity` or no header passes through.
 * Brotli is not among the formats Workers' `DecompressionStream` reads, so `br` is refused with a message
 * (SDKs send gzip: wire-protocols.md, Sentry ingest).
 */
export async function readSentryBody(body: ReadableStream<Uint8Array> | null, contentEncoding: string | null, maxBytes: number): Promise<Uint8Array> {
  if (body === null) return new Uint8Array()
  const encoding = (contentEncoding ?? '').trim().toLowerCase()
  let stream = body
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = body.pipeThrough(decompressor('gzip'))
  else if (encoding === 'deflate') stream = body.pipeThrough(decompressor('deflate'))
  else if (encoding !== '' && encoding !== 'identity') throw new UnsupportedMediaError(`Unsupported Content-Encoding: ${encoding}. Send gzip, deflate or no encoding.`)
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > maxBytes) {
        await reader.cancel().catch(() => {})
        throw new PayloadTooLargeError(maxBytes)
      }
      chunks.push(value)
    }
  } catch (error) {
    if (error instanceof PayloadTooLargeError) throw error
    throw new MalformedRequestError(`The ${encoding} body could not be decoded.`)
  }
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** A `DecompressionStream` typed for byte streams (its writable side is declared for any BufferSource). */
function decompressor(format: 'gzip' | 'deflate'): ReadableWritablePair<Uint8Array, Uint8Array> {
  return new DecompressionStream(format) as ReadableWritablePair<Uint8Array, Uint8Array>
}
