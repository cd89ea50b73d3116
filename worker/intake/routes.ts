import { InvalidInputError, MalformedRequestError, PayloadTooLargeError } from '../errors.ts'
import { readBodyBytes, readJsonObject } from '../http/read-body.ts'
import { json } from '../http/respond.ts'
import { route, type ApiRequest, type ApiRouter } from '../http/router.ts'
import { scopeOf, withApp } from '../http/with-app.ts'
import { importIncoming, importStatus, retrySetAside, type Upload } from './import-incoming.ts'
import { parseUploadPath, UPLOAD_EMPTY_MESSAGE, UPLOAD_FILE_MISSING_MESSAGE, UPLOAD_MAX_BYTES } from './log-file-name.ts'

/**
 * Chunked uploads (no Content-Length) are buffered before they go to R2, which needs the length up front;
 * they get a smaller limit than streamed ones to stay well inside the isolate's 128 MB.
 */
export const CHUNKED_UPLOAD_MAX_BYTES = 32 * 1024 * 1024

/** A JSON command body (`{"retry": id}`) is tiny; anything larger is a log sent without `file`. */
const COMMAND_MAX_BYTES = 64 * 1024

export const RETRY_MESSAGE = 'retry must be the id of a set-aside file (see failed in GET ?api=import-incoming).'

/** `?api=import-incoming` (reference §6, docs/api-ingestion.md). */
export function registerImportRoutes(router: ApiRouter): void {
  route(
    router,
    '/import-incoming',
    {
      GET: async (request, deps) => json(await importStatus(deps, scopeOf(request))),
      POST: async (request, deps) => {
        const scope = scopeOf(request)
        const upload = await readUpload(request)
        const retry = upload ? undefined : await readRetry(request)
        const result = retry === undefined ? await importIncoming(deps, scope, upload) : await retrySetAside(deps, scope, retry)
        return json(result, result.job ? 202 : 200)
      },
    },
    [withApp],
  )
}

/**
 * The upload of `?file=<module>/<name>`: the raw body, streamed when its length is declared. A `file`
 * parameter that is present but empty (or only spaces or slashes) is a 422 — its body must not be dropped.
 */
async function readUpload(request: ApiRequest): Promise<Upload | null> {
  const raw = request.query.file
  if (raw === undefined) return null
  const path = parseUploadPath((Array.isArray(raw) ? raw[0] : raw)?.trim())
  const declared = request.headers.get('content-length')
  if (declared !== null && /^\d+$/.test(declared.trim())) {
    const length = Number(declared)
    if (length > UPLOAD_MAX_BYTES) throw new PayloadTooLargeError(UPLOAD_MAX_BYTES)
    if (length === 0 || !request.body) throw new InvalidInputError(UPLOAD_EMPTY_MESSAGE)
    return { path, body: request.body, length }
  }
  const bytes = await readBodyBytes(request, CHUNKED_UPLOAD_MAX_BYTES)
  if (bytes.length === 0) throw new InvalidInputError(UPLOAD_EMPTY_MESSAGE)
  return { path, body: bytes, length: bytes.length }
}

/**
 * Without `file` the body may only be a JSON object: `{}` (or nothing) processes the incoming files,
 * `{"retry": id}` retries a set-aside file. Anything else — typically a log sent without naming it — is a
 * 422, so no body is silently dropped.
 */
async function readRetry(request: ApiRequest): Promise<number | undefined> {
  let body: Record<string, unknown>
  try {
    body = await readJsonObject(request, COMMAND_MAX_BYTES)
  } catch (error) {
    if (error instanceof InvalidInputError || error instanceof PayloadTooLargeError || error instanceof MalformedRequestError) {
      throw new InvalidInputError(UPLOAD_FILE_MISSING_MESSAGE)
    }
    throw error
  }
  if (body.retry === undefined) return undefined
  if (typeof body.retry !== 'number' || !Number.isSafeInteger(body.retry) || body.retry < 1) throw new InvalidInputError(RETRY_MESSAGE)
  return body.retry
}
