import type { AppScope } from '../../../apps/app-scope.ts'
import { InvalidInputError } from '../../../errors.ts'
import type { LogStore } from '../../../intake/log-store.ts'
import { checkSourceMap, storeSourceMap } from '../source-maps.ts'
import { bundledMaps } from './artifact-bundle.ts'
import { CHUNK_PREFIX, sha1, SHA1 } from './chunks.ts'
import { registerRelease } from './cli-releases.ts'

/** A bundle of many maps (each at most 16 MiB) stays within this. */
const MAX_BUNDLE_BYTES = 64 * 1024 * 1024

/** What `…/artifactbundle/assemble/` answers (sentry-cli-protocol.md: `missingChunks` is required). */
export interface AssembleState {
  readonly state: 'not_found' | 'ok' | 'error'
  readonly missingChunks: readonly string[]
  readonly detail?: string
}

export interface AssembleRequest {
  readonly checksum: string
  readonly chunks: readonly string[]
  readonly version: string | null
}

/** The body's checksum and chunk list, checked (422 when they are not SHA-1 hex digests). */
export function toAssembleRequest(body: Record<string, unknown>, version: string | null): AssembleRequest {
  const checksum = typeof body.checksum === 'string' ? body.checksum.toLowerCase() : ''
  const chunks = Array.isArray(body.chunks) ? body.chunks.map((chunk) => String(chunk).toLowerCase()) : []
  if (!SHA1.test(checksum) || chunks.length === 0 || !chunks.every((chunk) => SHA1.test(chunk))) {
    throw new InvalidInputError('checksum and chunks must be SHA-1 hex digests.')
  }
  return { checksum, chunks, version }
}

/**
 * Lists the chunks not stored yet (`not_found`); once all are there, joins them, checks the bundle's SHA-1,
 * stores its maps under the release (an upsert each) and answers `ok` — synchronously, so `--wait` is not
 * needed. The chunks are deleted afterwards; a repeated upload sends them again.
 */
export async function assembleBundle(scope: AppScope, logs: LogStore, request: AssembleRequest, now: string): Promise<AssembleState> {
  if (request.version === null) return { state: 'error', missingChunks: [], detail: 'Loupe resolves source maps by release: upload with --release.' }
  const unique = [...new Set(request.chunks)]
  const stored = new Map<string, number>()
  const missing: string[] = []
  for (const chunk of unique) {
    const head = await logs.head(`${CHUNK_PREFIX}${chunk}`)
    if (head === null) missing.push(chunk)
    else stored.set(chunk, head.size)
  }
  if (missing.length > 0) return { state: 'not_found', missingChunks: missing }
  const size = request.chunks.reduce((sum, chunk) => sum + stored.get(chunk)!, 0)
  if (size > MAX_BUNDLE_BYTES) return { state: 'error', missingChunks: [], detail: 'The artifact bundle is larger than 64 MiB.' }
  const zip = new Uint8Array(size)
  let offset = 0
  for (const chunk of request.chunks) {
    const part = await logs.read(`${CHUNK_PREFIX}${chunk}`, 0, stored.get(chunk)!)
    if (part === null) return { state: 'not_found', missingChunks: [chunk] }
    zip.set(part, offset)
    offset += part.length
  }
  if ((await sha1(zip)) !== request.checksum) return { state: 'error', missingChunks: [], detail: 'The assembled bundle does not match its checksum.' }
  let maps
  try {
    maps = bundledMaps(zip)
    for (const map of maps) checkSourceMap(map.bytes)
  } catch (error) {
    if (error instanceof InvalidInputError) return { state: 'error', missingChunks: [], detail: error.message }
    throw error
  }
  for (const map of maps) await storeSourceMap(scope, logs, { release: request.version, file: map.file, bytes: map.bytes }, now)
  await registerRelease(scope, request.version, now)
  await logs.delete(unique.map((chunk) => `${CHUNK_PREFIX}${chunk}`))
  return { state: 'ok', missingChunks: [] }
}
