import type { Struct } from 'superstruct'
import { check } from '../../shared/validate.ts'
import { InvalidInputError, MalformedRequestError, PayloadTooLargeError } from '../errors.ts'

/**
 * How much of a refused body is still read and discarded. Answering while the client is still sending, with
 * the body half read, makes workerd log `Can't read from request stream after response has been sent` (or
 * `…after responding with an exception`) and under `wrangler dev` sometimes lose the answer altogether
 * ("Your worker restarted mid-request"); cancelling the stream does the same. Reading the rest does not, and
 * a body refused before any of it was read needs nothing (both measured under `wrangler dev`, issue 10
 * defect 10; test/local/request-body.test.ts). Past this many bytes the client is not sending a request
 * anyone could accept, and the stream is cancelled.
 */
export const DRAIN_MAX_BYTES = 128 * 1024 * 1024

/**
 * Reads the whole body, refusing more than `limitBytes` — from Content-Length when the client states it
 * (without reading any of it), and while streaming otherwise (chunked bodies have no length up front; the
 * rest of a refused one is drained).
 */
export async function readBodyBytes(request: Request, limitBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > limitBytes) throw new PayloadTooLargeError(limitBytes)
  if (!request.body) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limitBytes) {
      await drain(reader)
      throw new PayloadTooLargeError(limitBytes)
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return chunks[0]!
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** Reads what is left of a body and throws it away (see `DRAIN_MAX_BYTES`). */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let drained = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    drained += value.byteLength
    if (drained > DRAIN_MAX_BYTES) {
      await reader.cancel()
      return
    }
  }
}

/**
 * The JSON object in the body. It is parsed whatever the Content-Type says (the reference accepts the
 * `text/plain` bodies browsers send without a preflight); an empty body is `{}`. Invalid JSON is a 400,
 * a JSON value that is not an object a 422.
 */
export async function readJsonObject(request: Request, limitBytes: number): Promise<Record<string, unknown>> {
  const text = new TextDecoder().decode(await readBodyBytes(request, limitBytes)).trim()
  if (text === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new MalformedRequestError('Request body must be valid JSON.')
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InvalidInputError('Request body must be a JSON object.')
  }
  return parsed as Record<string, unknown>
}

/** Any JSON value in the body (arrays too); an empty body is null. Invalid JSON is a 400. */
export async function readJsonValue(request: Request, limitBytes: number): Promise<unknown> {
  const text = new TextDecoder().decode(await readBodyBytes(request, limitBytes)).trim()
  if (text === '') return null
  try {
    return JSON.parse(text)
  } catch {
    throw new MalformedRequestError('Request body must be valid JSON.')
  }
}

/** Reads the JSON body and validates it against a shared schema (422 with the schema's message). */
export async function readJson<T, S>(request: Request, schema: Struct<T, S>, limitBytes: number): Promise<T> {
  return validated(await readJsonObject(request, limitBytes), schema)
}

/** Validates an already-read value against a shared schema (422 with the schema's message). */
export function validated<T, S>(value: unknown, schema: Struct<T, S>): T {
  const result = check(value, schema)
  if (!result.ok) throw new InvalidInputError(result.message)
  return result.value
}
