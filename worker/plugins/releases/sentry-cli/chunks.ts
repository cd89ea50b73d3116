import { InvalidInputError } from '../../../errors.ts'
import { readSentryBody } from '../../http-ingest/sentry/sentry-body.ts'
import type { LogStore } from '../../../intake/log-store.ts'
import { hexDigest } from '../../../intake/sha256-bytes.ts'
import { RELEASE_LIMITS } from '../../../../shared/schemas/releases.ts'

/** Chunk sizes offered to sentry-cli (sentry-cli-protocol.md "chunk upload options"): 8 MiB requests at most. */
export const CHUNK_SIZE = 2 * 1024 * 1024
export const CHUNKS_PER_REQUEST = 4
export const MAX_CHUNK_REQUEST_BYTES = CHUNK_SIZE * CHUNKS_PER_REQUEST + 256 * 1024
/** Chunks wait in the log bucket under this prefix until a bundle assembles them. */
export const CHUNK_PREFIX = 'sentry-chunks/'
export const SHA1 = /^[0-9a-f]{40}$/

export const CHUNK_MESSAGE = 'A chunk does not match its SHA-1 name.'

/** The options `GET …/chunk-upload/` answers; `url` is relative, resolved by the CLI against SENTRY_URL. */
export function chunkUploadOptions(org: string) {
  return {
    url: `/api/0/organizations/${encodeURIComponent(org)}/chunk-upload/`,
    chunkSize: CHUNK_SIZE,
    chunksPerRequest: CHUNKS_PER_REQUEST,
    maxRequestSize: MAX_CHUNK_REQUEST_BYTES,
    maxFileSize: RELEASE_LIMITS.mapBytes,
    concurrency: 1,
    hashAlgorithm: 'sha1',
    compression: ['gzip'],
    maxWait: 60,
  }
}

/** One uploaded part: its name (the SHA-1 of the uncompressed bytes) and its bytes, gzip or raw. */
export interface UploadedChunk {
  readonly name: string
  readonly gzip: boolean
  readonly bytes: Uint8Array
}

/** Checks each chunk against its SHA-1 name (after gunzip) and stores it; nothing is stored when one is wrong. */
export async function storeChunks(logs: LogStore, chunks: readonly UploadedChunk[]): Promise<void> {
  const checked: [string, Uint8Array][] = []
  for (const chunk of chunks) {
    const bytes = chunk.gzip ? await gunzip(chunk.bytes) : chunk.bytes
    const name = chunk.name.toLowerCase()
    if (!SHA1.test(name) || (await sha1(bytes)) !== name) throw new InvalidInputError(CHUNK_MESSAGE)
    checked.push([name, bytes])
  }
  for (const [name, bytes] of checked) await logs.write(`${CHUNK_PREFIX}${name}`, bytes, bytes.length)
}

export async function sha1(bytes: Uint8Array): Promise<string> {
  return hexDigest(await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>))
}

/** Decoded as Sentry bodies are: a gzip bomb stops at the chunk size (413) instead of filling memory. */
function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  return readSentryBody(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream(), 'gzip', CHUNK_SIZE)
}
